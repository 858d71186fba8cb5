extension ContiguousArray {
    /// `count` copies of `element`.
    ///
    /// Reserved and appended, which the compiler specialises where the element type is known.
    /// `init(repeating:count:)` and `init(unsafeUninitializedCapacity:initializingWith:)` both
    /// reach an unspecialised allocation in the standard library that looks up the storage
    /// class's metadata in the runtime's cache on every call, once for each row read and each new
    /// object (BENCHMARKS.md, figures moved out of the code).
    @inline(__always)
    init(filledWith element: Element, count: Int) {
        self.init()
        reserveCapacity(count)
        for _ in 0..<count { append(element) }
    }
}
