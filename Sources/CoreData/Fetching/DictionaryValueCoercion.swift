/// Gives a fetched dictionary value the type its column declares, whichever store computed it:
/// SQLite hands back integers, reals, text and blobs; Swift aggregation hands back
/// `ConstantValue`s. Both go through here, so the two agree on types.
enum DictionaryValueCoercion {
    /// `value` as `type`; nil (the key is left out of the dictionary) when it is NULL or cannot
    /// take that type.
    static func coerce(_ value: ConstantValue, to type: NSAttributeType) -> Any? {
        switch (type, value) {
        case (_, .null): return nil
        case (.integer16AttributeType, _), (.integer32AttributeType, _), (.integer64AttributeType, _):
            return integer(value).map { NSNumber(value: $0) }
        case (.booleanAttributeType, _):
            return integer(value).map { NSNumber(value: $0 != 0) }
        case (.doubleAttributeType, _):
            return NumericValue(value).map { NSNumber(value: $0.double) }
        case (.floatAttributeType, _):
            return NumericValue(value).map { NSNumber(value: Float($0.double)) }
        case (.decimalAttributeType, .decimal(let decimal)): return decimal
        case (.decimalAttributeType, .string(let text)): return Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
        case (.decimalAttributeType, _):
            return NumericValue(value).map { number -> Decimal in
                if case .int(let whole) = number { return Decimal(whole) }
                return Decimal(string: String(number.double), locale: Locale(identifier: "en_US_POSIX")) ?? Decimal(number.double)
            }
        case (.stringAttributeType, .string(let text)): return text
        case (.stringAttributeType, _): return value.anyValue.map { "\($0)" }
        case (.dateAttributeType, .date(let date)): return date
        case (.dateAttributeType, _): return NumericValue(value).map { Date(timeIntervalSinceReferenceDate: $0.double) }
        case (.UUIDAttributeType, .data(let bytes)) where bytes.count == 16:
            return bytes.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) }
        case (.URIAttributeType, .string(let text)): return URL(string: text)
        case (.binaryDataAttributeType, .data(let data)): return data
        case (.undefinedAttributeType, _), (.objectIDAttributeType, _): return value.anyValue
        default: return value.anyValue
        }
    }

    /// A stored or computed value as SQLite returned it.
    static func constant(_ value: SQLValue) -> ConstantValue {
        switch value {
        case .null: .null
        case .integer(let number): .int(number)
        case .real(let number): .double(number)
        case .text(let text): .string(text)
        case .blob(let bytes): .data(Data(bytes))
        }
    }

    private static func integer(_ value: ConstantValue) -> Int64? {
        switch NumericValue(value) {
        case .int(let number)?: number
        case .double(let number)? where number.isFinite && abs(number) < 9.2e18: Int64(number.rounded(.towardZero))
        default: nil
        }
    }
}
