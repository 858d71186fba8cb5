/// Carries a value the compiler cannot prove thread-safe across a queue hop that the confinement
/// rules of a context or coordinator make safe (the value is only used on the destination queue).
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
