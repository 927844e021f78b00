/// A small table in front of a manager's dictionary of records, keyed by a factory key's identity
/// (the address of its name literal and its types), so most lookups compare three words instead
/// of hashing the name's text.
///
/// Part of the manager's state: read and written only under its lock, and it holds its records
/// strongly. A key lives in its home slot or one of the next `probes - 1`; a miss falls back to
/// the dictionary, which compares names by text (two images may hold separate copies of one
/// literal), and a full neighbourhood lets the newest record take its home slot.
struct RecordShortcuts {
    private static let size = 64
    private static let probes = 4
    private var slots: [FactoryRecord?] = Array(repeating: nil, count: RecordShortcuts.size)

    private static func home(of key: FactoryKey) -> Int {
        let name = UInt(bitPattern: key.name.start)
        let result = UInt(bitPattern: Int(bitPattern: key.result))
        return Int(truncatingIfNeeded: (name ^ (name &>> 6) ^ (result &>> 4)) & UInt(size - 1))
    }

    /// The record remembered for `key`, if any.
    func record(for key: FactoryKey) -> FactoryRecord? {
        var index = Self.home(of: key)
        for _ in 0..<Self.probes {
            guard let record = slots[index] else { return nil }
            if record.key.name.start == key.name.start && record.key.result == key.result
                && record.key.parameter == key.parameter
            {
                return record
            }
            index = (index &+ 1) & (Self.size - 1)
        }
        return nil
    }

    /// Remembers `record` for its key.
    mutating func remember(_ record: FactoryRecord) {
        let home = Self.home(of: record.key)
        var index = home
        for _ in 0..<Self.probes {
            if slots[index] == nil {
                slots[index] = record
                return
            }
            index = (index &+ 1) & (Self.size - 1)
        }
        slots[home] = record
    }
}
