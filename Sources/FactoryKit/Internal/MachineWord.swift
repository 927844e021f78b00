/// The arithmetic that packs or mixes machine words, written for any word size: 64-bit platforms
/// and 32-bit ones (armv7, wasm32, watchOS arm64_32) alike.
///
/// Nothing here may assume a 64-bit word: constants are derived from `UInt.bitWidth`, never
/// written as literals wider than 32 bits. The file depends on the standard library alone, so
/// `.ci/check-32-bit-words` compiles it, unchanged, for 32-bit targets and checks its results
/// with `Int` and `UInt` shadowed by `Int32` and `UInt32` (hence the explicit conversions of
/// `bitWidth`, which is a `Swift.Int` whatever the type).
@usableFromInline
enum MachineWord {
    /// The multiplier of Fibonacci hashing for this word size, 2^bitWidth divided by the golden
    /// ratio: `0x9E37_79B9_7F4A_7C15` on 64-bit platforms, `0x9E37_79B9` on 32-bit ones, the
    /// top half of the former; both odd. The high bits of a product depend on every bit of what
    /// it multiplies.
    static var goldenRatio: UInt {
        let golden64 = (0x9E37_79B9 as UInt64) &<< 32 | (0x7F4A_7C15 as UInt64)
        return UInt(truncatingIfNeeded: golden64 &>> (64 &- UInt64(UInt.bitWidth)))
    }

    /// The top `bits` bits of `word` multiplied by `goldenRatio`: a well-mixed index below
    /// 2^`bits`, for `bits` from 1 to `UInt.bitWidth`.
    static func mixedIndex(_ word: UInt, bits: Int) -> Int {
        Int(truncatingIfNeeded: (word &* goldenRatio) &>> (Int(UInt.bitWidth) &- bits))
    }

    /// Low bits of an object's address that are always zero, free to carry a tag: objects begin
    /// with two pointers and are aligned to at least a pointer, four bytes on 32-bit platforms.
    static var addressTagMask: UInt { 3 }
}
