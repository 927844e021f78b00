import Testing

@testable import FactoryKit

/// `RecordShortcuts`, the table in front of a manager's dictionary of records, is only a shortcut:
/// whatever it holds or misses, every key finds its own record, and keys whose names are equal text
/// at different addresses find the same one (Design.md's argument for the table).
@Suite struct RecordShortcutsTests {
    /// More keys than the table has slots, all of one type, so homes collide and neighbourhoods fill:
    /// each key still finds the record made for it, the second time as the first.
    @Test func everyKeyFindsItsOwnRecordWhenTheTableOverflows() {
        var state = ManagerState()
        let names = (0..<200).map { LiteralText.copy(of: "factory\($0)") }
        defer { for name in names { name.free() } }
        let keys = names.map { FactoryKey($0, parameter: Void.self, result: Int.self) }
        let records = keys.map { state.record(for: $0) }
        for (index, key) in keys.enumerated() {
            #expect(state.record(for: key) === records[index])
            #expect(state.existingRecord(for: key) === records[index])
        }
        #expect(Set(records.map(ObjectIdentifier.init)).count == keys.count)
    }

    /// Two images may hold separate copies of one literal: a key whose name is the same text at
    /// another address misses the table, and the dictionary, which compares text, finds the record.
    @Test func aNameAtAnotherAddressFindsTheSameRecord() {
        var state = ManagerState()
        let first = FactoryKey(LiteralText.copy(of: "service"), parameter: Void.self, result: String.self)
        let second = FactoryKey(LiteralText.copy(of: "service"), parameter: Void.self, result: String.self)
        defer {
            first.name.free()
            second.name.free()
        }
        #expect(first.name.start != second.name.start)
        let record = state.record(for: first)
        #expect(state.record(for: second) === record)
        #expect(state.record(for: FactoryKey(first.name, parameter: Void.self, result: Int.self)) !== record)
    }
}

extension LiteralText {
    /// `text` copied into memory of its own, freed with `free()`: a name at an address no literal
    /// has.
    static func copy(of text: String) -> LiteralText {
        let bytes = Array(text.utf8CString)
        let copy = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count)
        copy.initialize(from: bytes, count: bytes.count)
        return LiteralText(start: UnsafePointer(copy))
    }

    /// Frees the copy `copy(of:)` made, once nothing reads it any more.
    func free() {
        UnsafeMutablePointer(mutating: start).deallocate()
    }
}
