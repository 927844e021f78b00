import FactoryKitAtomics

/// A small table from a factory key's identity (the address of its name literal and its types) to
/// its record, so most lookups compare three words instead of hashing a name.
///
/// A key lives in its home slot or one of the next `probes - 1`; slots are never emptied, so an
/// empty slot ends the search, and a miss falls back to the manager's dictionary, which compares
/// names by text. A slot holds a record's address, unretained: records live as long as their
/// manager, which owns this table.
///
/// Slots are atomic words, written under the manager's lock. A scope modifier also reads them
/// without the lock (see `FactoryRecord.scopeWord`): a slot changes from one whole record address
/// to another, and a record it names lives as long as the manager the reader holds.
@usableFromInline
final class RecordDirectory: @unchecked Sendable {
    @usableFromInline static let size = 64
    @usableFromInline static let probes = 4

    @usableFromInline let slots: AtomicWord
    /// Odd while the manager's `autoRegister()` has run (`ManagerState.isAutoRegistered`): until
    /// then, a record's options may be about to change. It counts the changes, so a reader that
    /// finds it unchanged after reading a record's word knows `autoRegister()` did not run again
    /// in between (see `recordAfterAutoRegistration`).
    let autoRegistered: AtomicWord

    init() {
        slots = .allocateZeroed(count: RecordDirectory.size + 1)
        autoRegistered = slots + RecordDirectory.size
    }

    deinit { slots.deallocate() }

    /// The home slot: the name's address and the result type, mixed by a multiplicative hash.
    static func index(name: UnsafeRawPointer, result: ObjectIdentifier) -> Int {
        MachineWord.mixedIndex(UInt(bitPattern: name) ^ (UInt(bitPattern: result) &>> 3), bits: 6) & (size - 1)
    }

    /// The record remembered for `key` once `autoRegister()` has run, for readers without the
    /// lock, with the `autoRegistered` count it was found under. A reader acts on a word of the
    /// record only if `isStillAutoRegistered(since:)` holds after reading it: a reset and another
    /// thread's `autoRegister()` may otherwise have written the word in between, from a
    /// half-registered container.
    func recordAfterAutoRegistration(for key: FactoryKey) -> (record: Unmanaged<FactoryRecord>, count: UInt)? {
        let count = autoRegistered.loadAcquiring()
        guard count & 1 != 0, let record = record(for: key) else { return nil }
        return (record, count)
    }

    /// The table's address, which names its manager.
    var address: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    /// Whether `autoRegister()` has stayed done since `autoRegistered` read `count`.
    func isStillAutoRegistered(since count: UInt) -> Bool {
        autoRegistered.loadAcquiring() == count
    }

    /// The record remembered for `key`, unretained; with or without the manager's lock. The record
    /// stays valid while its manager lives.
    func record(for key: FactoryKey) -> Unmanaged<FactoryRecord>? {
        let name = UnsafeRawPointer(key.name.start)
        var index = RecordDirectory.index(name: name, result: key.result)
        for _ in 0..<RecordDirectory.probes {
            guard let address = UnsafeRawPointer(bitPattern: (slots + index).loadAcquiring()) else { return nil }
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
            if (slots + index).loadRelaxed() == 0 {
                (slots + index).storeReleasing(word)
                return
            }
            index = (index &+ 1) & (RecordDirectory.size - 1)
        }
        (slots + home).storeReleasing(word)  // all taken: the newest wins its home slot
    }
}
