/// A model's hold on its backing data, stored in the model (the `@Model` macro declares it).
///
/// Non-copyable, so that it lives exactly as long as its model: when the model goes, so does
/// the slot, and it tells the backing data, which clears the managed object's link back to the
/// model. That link can then be a plain unretained pointer instead of a weak reference, which
/// would cost every model a side allocation on creation and a slower release.
public struct ModelBackingSlot: ~Copyable {
    /// The backing data; nil until first asked for (a model made in user code) or given (a
    /// fetched model).
    public private(set) var data: ModelBackingData?

    public init() {}

    public init(_ data: ModelBackingData) {
        self.data = data
    }

    /// Holds `newData` instead; backing data let go of no longer has this model.
    public mutating func hold(_ newData: ModelBackingData) {
        if let data, data !== newData { data.modelDidGo() }
        data = newData
    }

    deinit {
        data?.modelDidGo()
    }
}
