/// Longest increasing subsequences: which elements of a reordered list can stay where they
/// are, so that only the others are reported as moves.
enum IncreasingSubsequence {
    /// Marks a longest strictly increasing subsequence of `values` (distinct integers).
    ///
    /// Patience sorting, O(m log m); O(m) when the values are already increasing, which is the
    /// common case (a refetch where little moved) thanks to the append fast path.
    static func longest(_ values: [Int]) -> [Bool] {
        var keep = [Bool](repeating: false, count: values.count)
        guard !values.isEmpty else { return keep }
        // tails[k]: index into `values` of the smallest tail of an increasing run of length k+1.
        var tails: [Int] = []
        var previous = [Int](repeating: -1, count: values.count)
        tails.reserveCapacity(64)
        for (index, value) in values.enumerated() {
            if let last = tails.last, values[last] >= value {
                var low = 0
                var high = tails.count - 1
                while low < high {
                    let middle = (low + high) / 2
                    if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
                }
                previous[index] = low > 0 ? tails[low - 1] : -1
                tails[low] = index
            } else {
                previous[index] = tails.last ?? -1
                tails.append(index)
            }
        }
        var cursor = tails[tails.count - 1]
        while cursor >= 0 {
            keep[cursor] = true
            cursor = previous[cursor]
        }
        return keep
    }

    /// Marks a strictly increasing subsequence of `values` with the greatest total weight.
    ///
    /// `values` must be distinct integers in `0..<bound`; weights positive. A Fenwick tree of
    /// prefix maxima over the values gives O(m log bound).
    static func heaviest(_ values: [Int], weights: [Int], bound: Int) -> [Bool] {
        precondition(values.count == weights.count)
        var keep = [Bool](repeating: false, count: values.count)
        guard !values.isEmpty else { return keep }
        // tree[i] holds (best total, element index) over a range of values, 1-based.
        var tree = [(total: Int, element: Int)](repeating: (0, -1), count: bound + 1)
        var previous = [Int](repeating: -1, count: values.count)
        var totals = [Int](repeating: 0, count: values.count)
        var best = (total: 0, element: -1)
        for (index, value) in values.enumerated() {
            // Best chain ending below `value`.
            var position = value
            var below = (total: 0, element: -1)
            while position > 0 {
                if tree[position].total > below.total { below = tree[position] }
                position &= position - 1
            }
            let total = below.total + weights[index]
            totals[index] = total
            previous[index] = below.element
            if total > best.total { best = (total, index) }
            position = value + 1
            while position <= bound {
                if total > tree[position].total { tree[position] = (total, index) }
                position += position & -position
            }
        }
        var cursor = best.element
        while cursor >= 0 {
            keep[cursor] = true
            cursor = previous[cursor]
        }
        return keep
    }
}
