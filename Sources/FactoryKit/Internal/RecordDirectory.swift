/// A small table from a factory key's identity (the address of its name literal and its types) to
/// its record, so most lookups compare three words instead of hashing a name.
///
/// A key lives in its home slot or one of the next `probes - 1`; slots are never emptied, so an
/// empty slot ends the search, and a miss falls back to the manager's dictionary, which compares
/// names by text. A slot holds a record's address, unretained: records live as long as their
/// manager, which owns this table. Read and written under the manager's lock only.
@usableFromInline
final class RecordDirectory {
    @usableFromInline static let size = 64
    @usableFromInline static let probes = 4

    @usableFromInline let slots: UnsafeMutablePointer<UInt>

    init() {
        slots = .allocate(capacity: RecordDirectory.size)
        slots.initialize(repeating: 0, count: RecordDirectory.size)
    }

    deinit { slots.deallocate() }

    /// The home slot: the name's address and the result type, mixed by a multiplicative hash.
    static func index(name: UnsafeRawPointer, result: ObjectIdentifier) -> Int {
        MachineWord.mixedIndex(UInt(bitPattern: name) ^ (UInt(bitPattern: result) &>> 3), bits: 6) & (size - 1)
    }

    /// The record remembered for `key`, unretained. The record stays valid while its manager lives.
    func record(for key: FactoryKey) -> Unmanaged<FactoryRecord>? {
        let name = UnsafeRawPointer(key.name.start)
        var index = RecordDirectory.index(name: name, result: key.result)
        for _ in 0..<RecordDirectory.probes {
            guard let address = UnsafeRawPointer(bitPattern: slots[index]) else { return nil }
            let record = Unmanaged<FactoryRecord>.fromOpaque(address)
            let matches = record._withUnsafeGuaranteedRef { record in
                record.key.name.start == key.name.start && record.key.result == key.result
                    && record.key.parameter == key.parameter
            }
            if matches { return record }
            index = (index &+ 1) & (RecordDirectory.size - 1)
        }
        return nil
    }

    /// Remembers `record` for its key.
    @usableFromInline
    func remember(_ record: FactoryRecord) {
        let name = UnsafeRawPointer(record.key.name.start)
        let home = RecordDirectory.index(name: name, result: record.key.result)
        let word = UInt(bitPattern: Unmanaged.passUnretained(record).toOpaque())
        var index = home
        for _ in 0..<RecordDirectory.probes {
            if slots[index] == 0 {
                slots[index] = word
                return
            }
            index = (index &+ 1) & (RecordDirectory.size - 1)
        }
        slots[home] = word  // all taken: the newest wins its home slot
    }
}
