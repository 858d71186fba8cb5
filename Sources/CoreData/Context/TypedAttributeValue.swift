/// Converts between stored values and the Swift types `@Managed` properties declare (`Int32`,
/// `Bool`, `String?`, `Date`...) without passing through `NSNumber` or a bridging cast: the
/// typed path of every `@Managed` get and set.
///
/// `T` is matched by metatype identity, and the result reinterpreted as `T` only when the
/// types are identical, so no dynamic cast runs; any other type returns nil and the caller
/// takes the key-value coding path.
@usableFromInline
enum TypedAttributeValue {
    /// Inlinable with `managedValue(forKey:)`: specialised, the comparisons of `T` with each
    /// type fold away to the one that matches.
    @inlinable
    static func make<T>(_ stored: StoredValue, as type: T.Type) -> T? {
        switch stored {
        case .integer(let value):
            if T.self == Int32.self || T.self == Int32?.self { return cast(Int32(truncatingIfNeeded: value), to: T.self) }
            if T.self == Int64.self || T.self == Int64?.self { return cast(value, to: T.self) }
            if T.self == Int16.self || T.self == Int16?.self { return cast(Int16(truncatingIfNeeded: value), to: T.self) }
            if T.self == Int.self || T.self == Int?.self { return cast(Int(truncatingIfNeeded: value), to: T.self) }
            if T.self == Bool.self || T.self == Bool?.self { return cast(value != 0, to: T.self) }
        case .real(let value):
            if T.self == Double.self || T.self == Double?.self { return cast(value, to: T.self) }
            if T.self == Float.self || T.self == Float?.self { return cast(Float(value), to: T.self) }
        case .text(let value):
            if T.self == String.self || T.self == String?.self { return cast(value, to: T.self) }
        case .date(let value):
            if T.self == Date.self || T.self == Date?.self { return cast(value, to: T.self) }
        case .data(let value):
            if T.self == Data.self || T.self == Data?.self { return cast(value, to: T.self) }
        case .decimal(let value):
            if T.self == Decimal.self || T.self == Decimal?.self { return cast(value, to: T.self) }
        case .uuid(let value):
            if T.self == UUID.self || T.self == UUID?.self { return cast(value, to: T.self) }
        case .url(let value):
            if T.self == URL.self || T.self == URL?.self { return cast(value, to: T.self) }
        case .objectID, .other:
            break
        }
        return nil
    }

    /// What a nil value reads as when `T` is one of the plain types: nil for an optional,
    /// zero for a number or a boolean (as Xcode-generated scalar properties read it); nil for
    /// any other `T`, which the caller converts by a dynamic cast.
    @inlinable
    static func absent<T>(as type: T.Type) -> T? {
        if T.self == String?.self { return unsafeBitCast(String?.none, to: T.self) }
        if T.self == Date?.self { return unsafeBitCast(Date?.none, to: T.self) }
        if T.self == Data?.self { return unsafeBitCast(Data?.none, to: T.self) }
        if T.self == UUID?.self { return unsafeBitCast(UUID?.none, to: T.self) }
        if T.self == URL?.self { return unsafeBitCast(URL?.none, to: T.self) }
        if T.self == Decimal.self || T.self == Decimal?.self { return cast(Decimal(0), orNilAs: T.self) }
        if T.self == Int32.self || T.self == Int32?.self { return cast(Int32(0), orNilAs: T.self) }
        if T.self == Int64.self || T.self == Int64?.self { return cast(Int64(0), orNilAs: T.self) }
        if T.self == Int16.self || T.self == Int16?.self { return cast(Int16(0), orNilAs: T.self) }
        if T.self == Int.self || T.self == Int?.self { return cast(Int(0), orNilAs: T.self) }
        if T.self == Bool.self || T.self == Bool?.self { return cast(false, orNilAs: T.self) }
        if T.self == Double.self || T.self == Double?.self { return cast(Double(0), orNilAs: T.self) }
        if T.self == Float.self || T.self == Float?.self { return cast(Float(0), orNilAs: T.self) }
        return nil
    }

    /// `zero` when `T` is `Value`, nil when `T` is `Value?` (checked by the caller).
    @inlinable @inline(__always)
    static func cast<Value, T>(_ zero: Value, orNilAs type: T.Type) -> T {
        if T.self == Value.self { return unsafeBitCast(zero, to: T.self) }
        return unsafeBitCast(Value?.none, to: T.self)
    }

    /// `value` as `T`, where `T` is `Value` or `Value?` (checked by the caller).
    @inlinable @inline(__always)
    static func cast<Value, T>(_ value: Value, to type: T.Type) -> T {
        if T.self == Value.self { return unsafeBitCast(value, to: T.self) }
        return unsafeBitCast(Optional(value), to: T.self)
    }

    /// The Swift type a typed value was given as: the attribute decides whether it takes it
    /// (an `Int32` for an integer attribute, not for a boolean one).
    @usableFromInline
    enum Source {
        case int16, int32, int64, int, bool, double, float, string, date, data, decimal, uuid, url
        /// A nil value, which every attribute takes.
        case absent
    }

    /// The stored form of a typed value (nil for nil) and the type it came as, or nil when `T`
    /// is not one of the plain types: the caller then takes the key-value coding path.
    /// Inlinable with `setManagedValue(_:forKey:)`, which specialises it to one branch.
    @inlinable
    static func storedForm<T>(of value: T) -> (stored: StoredValue?, source: Source)? {
        if let integer = read(value, as: Int32.self) { return (.integer(Int64(integer)), .int32) }
        if let integer = read(value, as: Int64.self) { return (.integer(integer), .int64) }
        if let integer = read(value, as: Int16.self) { return (.integer(Int64(integer)), .int16) }
        if let integer = read(value, as: Int.self) { return (.integer(Int64(integer)), .int) }
        if let flag = read(value, as: Bool.self) { return (.integer(flag ? 1 : 0), .bool) }
        if let real = read(value, as: Double.self) { return (.real(real), .double) }
        if let real = read(value, as: Float.self) { return (.real(Double(real)), .float) }
        if let text = read(value, as: String.self) { return (.text(text), .string) }
        if let date = read(value, as: Date.self) { return (.date(date), .date) }
        if let data = read(value, as: Data.self) { return (.data(data), .data) }
        if let decimal = read(value, as: Decimal.self) { return (.decimal(decimal), .decimal) }
        if let uuid = read(value, as: UUID.self) { return (.uuid(uuid), .uuid) }
        if let url = read(value, as: URL.self) { return (.url(url), .url) }
        if isPlainOptional(T.self) { return (nil, .absent) }
        return nil
    }

    /// Whether `T` is the optional of a plain type: a value of it that `storedForm(of:)` did not
    /// read is nil, which clears any attribute without a pass through key-value coding.
    @inlinable @inline(__always)
    static func isPlainOptional<T>(_ type: T.Type) -> Bool {
        T.self == String?.self || T.self == Date?.self || T.self == Data?.self || T.self == Int32?.self
            || T.self == Int64?.self || T.self == Int16?.self || T.self == Int?.self || T.self == Bool?.self
            || T.self == Double?.self || T.self == Float?.self || T.self == Decimal?.self || T.self == UUID?.self
            || T.self == URL?.self
    }

    /// Whether an attribute of `type` takes a value given as `source` on the typed path.
    @usableFromInline
    static func accepts(_ type: NSAttributeType, from source: Source) -> Bool {
        if source == .absent { return true }
        return switch type {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType:
            source == .int32 || source == .int64 || source == .int16 || source == .int
        case .booleanAttributeType: source == .bool
        case .doubleAttributeType: source == .double
        case .floatAttributeType: source == .float
        case .stringAttributeType: source == .string
        case .dateAttributeType: source == .date
        case .binaryDataAttributeType: source == .data
        case .decimalAttributeType: source == .decimal
        case .UUIDAttributeType: source == .uuid
        case .URIAttributeType: source == .url
        default: false
        }
    }

    /// `value` as `Value` when `T` is `Value` or `Value?` holding one; matched by metatype
    /// identity, as a `switch` of `as` patterns ran a failing dynamic cast per case.
    @inlinable @inline(__always)
    static func read<T, Value>(_ value: T, as type: Value.Type) -> Value? {
        if T.self == Value.self { return unsafeBitCast(value, to: Value.self) }
        if T.self == Value?.self { return unsafeBitCast(value, to: Value?.self) }
        return nil
    }
}
