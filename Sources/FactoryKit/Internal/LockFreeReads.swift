import FactoryKitAtomics

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Lets resolutions read what was published for them without taking a lock, and releases what
/// writers withdraw once no reader can hold it. Readers never wait; nobody waits under a lock.
///
/// A reader enters a section, loads a published object's address, copies out what it needs
/// (retaining it) and leaves. A writer withdraws the address (stores another one, or zero) and
/// hands the object to ``retire(_:)``; it is released by whoever next finds that no reader that
/// could have loaded it is still in a section, the writer itself or the last such reader to leave.
/// `register` and the resets return only once what they withdrew is released
/// (``awaitReleaseOfRetired()``): with its locks given up, it helps and yields until the readers
/// already in a section have left.
/// Why that is safe, and why it always happens, is argued once, in the Design article
/// ("Answers published for the next resolution").
///
/// Readers count themselves under a generation, 0 or 1 by its parity, in the low or high half of
/// a counter word. Counters are spread over stripes, one cache line each, picked by the reader's
/// stack address: threads mostly count on lines of their own.
@usableFromInline
enum LockFreeReads {
    /// Words per cache line, the distance between two counters.
    @inlinable static var lineWords: Int { 64 / MemoryLayout<UInt>.stride }
    /// How many stripes readers spread over.
    @inlinable static var stripeCount: Int { 1 &<< stripeBits }
    /// The bits of a stripe's index.
    @inlinable static var stripeBits: Int { 4 }

    /// A reader's place while in a section: its stripe and what it added there.
    @usableFromInline
    struct Section {
        @usableFromInline let counter: AtomicWord
        @usableFromInline let increment: UInt

        @inlinable
        init(counter: AtomicWord, increment: UInt) {
            self.counter = counter
            self.increment = increment
        }
    }

    /// The counter of the calling thread's stripe: threads' stacks lie megabytes apart.
    @inlinable @inline(__always)
    static func stripe() -> AtomicWord {
        var marker: UInt8 = 0
        let address = withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
        return ProcessWords.stripes + lineWords &* MachineWord.mixedIndex(address &>> 20, bits: stripeBits)
    }

    /// Enters a read section; `nil` when a new generation began at that instant (read with the
    /// lock instead). Pass the result to ``leave(_:)``.
    @inlinable @inline(__always)
    static func enter() -> Section? {
        let generation = ProcessWords.generation.load()
        let section = Section(
            counter: stripe(),
            increment: UInt(bitPattern: MachineWord.halfIncrement(generation: Int(bitPattern: generation & 1))))
        _ = section.counter.fetchAdd(section.increment)
        guard ProcessWords.generation.load() == generation else {
            leave(section)
            return nil
        }
        return section
    }

    /// Leaves the section `enter` returned, releasing what waited for it if anything waits.
    @inlinable @inline(__always)
    static func leave(_ section: Section) {
        _ = section.counter.fetchSubtract(section.increment)
        releaseRetiredIfAny()
    }

    /// How many batches are retired and not yet released, anywhere: while it is zero, a write has
    /// nothing to wait for.
    @inlinable static var pendingBatches: AtomicWord { ProcessWords.retired + 2 }

    /// The list of batches waiting for the readers counted under `parity` (0 or 1).
    @inlinable
    static func retired(parity: UInt) -> AtomicWord { ProcessWords.retired + Int(bitPattern: parity) }

    /// Releases what can be released, if anything waits. Call it with no lock held: a release may
    /// run a value's `deinit`.
    @inlinable @inline(__always)
    static func releaseRetiredIfAny() {
        if retired(parity: 0).load() | retired(parity: 1).load() != 0 { releaseRetired() }
    }

    /// Hands objects just withdrawn from where readers find them to be released once no reader
    /// can hold them. Takes no lock and never waits; callable under a lock. The release happens in
    /// a later ``releaseRetiredIfAny()``, by this thread or another.
    static func retire(_ objects: [Unmanaged<AnyObject>]) {
        guard !objects.isEmpty else { return }
        let batch = RetiredBatch(objects)
        _ = pendingBatches.fetchAdd(1)
        // The writer waits for it once its locks are given up (`awaitReleaseOfRetired()`).
        let chain = ResolutionChain.current
        chain.retiredHere.removeAll { $0.isReleased }
        chain.retiredHere.append(batch)
        // Read after the withdrawals: the batch waits for this generation's readers.
        let parity = ProcessWords.generation.load() & 1
        push(Unmanaged.passRetained(batch).toOpaque(), onto: retired(parity: parity))
    }

    /// Returns once everything this thread retired has been released, helping the release along:
    /// what a write withdrew is gone when the write returns, as callers of `reset` and `register`
    /// expect (a test checking a `deinit`, say). Call it with no lock held. It waits only for
    /// readers already in a section, each a few dozen instructions long, yielding meanwhile.
    @inlinable @inline(__always)
    static func awaitReleaseOfRetired() {
        if pendingBatches.loadRelaxed() != 0 { awaitReleaseOfRetiredSlowly() }
    }

    /// ``awaitReleaseOfRetired()`` once some batch waits somewhere.
    ///
    /// A thread releasing a chain it took (a `deinit` there writing) does not wait: the batches
    /// it waits for could sit in the rest of its own chain, or in the chain of another thread
    /// waiting in turn for one of its own; its batches stay for its next write to wait for.
    @usableFromInline
    static func awaitReleaseOfRetiredSlowly() {
        releaseRetiredIfAny()
        guard let chain = ResolutionChain.currentIfAny, !chain.retiredHere.isEmpty, chain.releasingRetired == 0
        else { return }
        let batches = chain.retiredHere
        chain.retiredHere.removeAll()
        for batch in batches {
            while !batch.isReleased {
                releaseRetired()
                if !batch.isReleased { sched_yield() }
            }
        }
    }

    /// Releases the batches no reader can hold, and begins a generation when batches wait for
    /// the current one's readers. Returns as soon as some reader is in the way: the last of them
    /// to leave calls it again.
    @usableFromInline
    static func releaseRetired() {
        while true {
            let generation = ProcessWords.generation.load()
            let current = generation & 1
            let previous = current ^ 1
            guard hasNoReaders(parity: previous) else { return }
            let batches = retired(parity: previous).exchange(0)
            if batches != 0 {
                // A batch pushed under a later generation may still be in its readers' hands.
                guard ProcessWords.generation.load() == generation else {
                    pushChain(batches, onto: retired(parity: previous))
                    continue
                }
                release(chain: batches)
            }
            guard retired(parity: current).load() != 0 else { return }
            _ = ProcessWords.generation.compareExchange(expected: generation, desired: generation &+ 1)
        }
    }

    /// Whether no stripe counts a reader under `parity`, each stripe read once.
    @usableFromInline
    static func hasNoReaders(parity: UInt) -> Bool {
        let mask = UInt(bitPattern: MachineWord.halfMask(generation: Int(bitPattern: parity)))
        for stripe in 0..<stripeCount where (ProcessWords.stripes + lineWords * stripe).load() & mask != 0 {
            return false
        }
        return true
    }

    /// Pushes one retained batch onto `list`.
    static func push(_ batch: UnsafeMutableRawPointer, onto list: AtomicWord) {
        pushChain(UInt(bitPattern: batch), onto: list)
    }

    /// Pushes a chain of batches onto `list`. Lists are only ever taken whole, so there is no ABA.
    static func pushChain(_ first: UInt, onto list: AtomicWord) {
        var last = RetiredBatch.at(first)
        while last.next != 0 { last = RetiredBatch.at(last.next) }
        var head = list.load()
        while true {
            last.next = head
            let (exchanged, original) = list.compareExchange(expected: head, desired: first)
            if exchanged { return }
            head = original
        }
    }

    /// Releases every batch of a chain taken from a list, and their objects.
    static func release(chain first: UInt) {
        let thread = ResolutionChain.current
        thread.releasingRetired += 1
        defer { thread.releasingRetired -= 1 }
        var address = first
        while address != 0 {
            let batch = Unmanaged<RetiredBatch>.fromOpaque(UnsafeRawPointer(bitPattern: address).unsafelyUnwrapped)
                .takeRetainedValue()
            address = batch.next
            for object in batch.objects { object.release() }
            batch.releasedWord.storeReleasing(1)
            _ = pendingBatches.fetchSubtract(1)
        }
    }
}

/// Objects withdrawn together, in a list of `ProcessWords.retired`, retained by the list (and by
/// the thread that retired them, until it has seen them released).
final class RetiredBatch {
    /// Nonzero once the objects are released. Read and written only through `releasedWord`, as
    /// the object's first stored property.
    private var released = fk_word()
    let objects: [Unmanaged<AnyObject>]
    /// The next batch's address, zero at the end of the list.
    var next: UInt = 0

    init(_ objects: [Unmanaged<AnyObject>]) { self.objects = objects }

    var releasedWord: AtomicWord { AtomicWord(firstStoredPropertiesOf: self) }

    /// Whether the objects have been released.
    var isReleased: Bool { releasedWord.loadAcquiring() != 0 }

    static func at(_ address: UInt) -> RetiredBatch {
        Unmanaged<RetiredBatch>.fromOpaque(UnsafeRawPointer(bitPattern: address).unsafelyUnwrapped)
            .takeUnretainedValue()
    }
}
