#if !canImport(Darwin)
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #endif
    import Synchronization

    /// Lets resolutions read what was published for them without taking a lock, and tells writers
    /// when an object they withdrew can no longer be in a reader's hands.
    ///
    /// A reader enters a section, loads a published object's address, copies out what it needs
    /// (retaining it) and leaves. A writer first withdraws the address (stores another one, or
    /// zero), then calls ``retire(_:)``, which waits until every reader that might have loaded the
    /// old address has left and only then releases the object. Readers never wait and never take a
    /// lock. A section runs a few dozen instructions and no user code, so a writer waits at most
    /// that long for each reader, however many readers keep arriving.
    ///
    /// Sections are counted by generation, so that new readers cannot keep a writer waiting: a
    /// writer flips the generation, then waits until no reader of the previous generation is
    /// left. A reader that entered after the flip loads addresses stored after the withdrawal, so
    /// it cannot hold the withdrawn object; one that saw the generation change while entering
    /// leaves at once and takes the lock instead. The withdrawal, the flip, the reader's count and
    /// its loads are all sequentially consistent: the argument rests on their one total order.
    ///
    /// The counts are spread over stripes, one cache line each, picked by the reader's stack
    /// address: threads mostly count on lines of their own, so readers on different cores do not
    /// pass one line back and forth. Each stripe counts generation 0 in the low half of its word
    /// and generation 1 in the high half (32 bits each on 64-bit platforms, 16 on 32-bit ones). The generation has a line of its own, which only writers
    /// write.
    ///
    /// On Apple platforms `Atomic` needs macOS 15 / iOS 18, newer than FactoryKit requires, so
    /// there nothing is published and every resolution takes the lock.
    @usableFromInline
    enum LockFreeReads {
        /// The address of the generation and the stripes once allocated, zero before. Statically
        /// stored, so reading it needs no lazy-initialization check.
        @usableFromInline static let countersAddress = Atomic<UInt>(0)
        /// Serializes writers: a writer may only flip the generation once the previous writer's
        /// readers have left.
        static let writers = Mutex<Void>(())

        /// Words per cache line, the distance between two counters.
        @inlinable static var lineWords: Int { 64 / MemoryLayout<Int>.stride }
        /// How many stripes readers spread over.
        @inlinable static var stripeCount: Int { 1 &<< stripeBits }
        /// The bits of a stripe's index.
        @inlinable static var stripeBits: Int { 4 }

        /// A reader's place while in a section: its stripe and what it added there.
        @usableFromInline
        struct Section {
            @usableFromInline let counter: UnsafeMutablePointer<Atomic<Int>>
            @usableFromInline let increment: Int

            @inlinable
            init(counter: UnsafeMutablePointer<Atomic<Int>>, increment: Int) {
                self.counter = counter
                self.increment = increment
            }
        }

        /// The generation, followed by the stripes.
        @inlinable @inline(__always)
        static var counters: UnsafeMutablePointer<Atomic<Int>> {
            let address = countersAddress.load(ordering: .acquiring)
            let counters = UnsafeMutablePointer<Atomic<Int>>(bitPattern: address)
            return counters ?? allocateCounters()
        }

        /// The stripe of the calling thread: threads' stacks lie megabytes apart.
        @inlinable @inline(__always)
        static func stripe() -> Int {
            var marker: UInt8 = 0
            let address = withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
            return MachineWord.mixedIndex(address &>> 20, bits: stripeBits)
        }

        /// Enters a read section; `nil` when a writer flipped the generation at that instant (read
        /// with the lock instead). Pass the result to ``leave(_:)``.
        @inlinable @inline(__always)
        static func enter() -> Section? {
            let counters = self.counters
            let generation = counters[0].load(ordering: .sequentiallyConsistent)
            let section = Section(
                counter: counters + lineWords &* (1 &+ stripe()),
                increment: MachineWord.halfIncrement(generation: generation))
            section.counter[0].wrappingAdd(section.increment, ordering: .sequentiallyConsistent)
            guard counters[0].load(ordering: .sequentiallyConsistent) == generation else {
                leave(section)
                return nil
            }
            return section
        }

        /// Leaves the section `enter` returned.
        @inlinable @inline(__always)
        static func leave(_ section: Section) {
            section.counter[0].wrappingSubtract(section.increment, ordering: .releasing)
        }

        /// Allocates the generation and the stripes, all zero, once.
        @usableFromInline
        static func allocateCounters() -> UnsafeMutablePointer<Atomic<Int>> {
            let count = lineWords * (1 + stripeCount)
            let raw = UnsafeMutableRawPointer.allocate(byteCount: count * MemoryLayout<Int>.stride, alignment: 64)
            let counters = raw.bindMemory(to: Atomic<Int>.self, capacity: count)
            for index in 0..<count { (counters + index).initialize(to: Atomic(0)) }
            let address = UInt(bitPattern: counters)
            let (exchanged, original) = countersAddress.compareExchange(
                expected: 0, desired: address, ordering: .acquiringAndReleasing)
            if exchanged { return counters }
            raw.deallocate()  // another thread won; nobody saw ours
            return UnsafeMutablePointer(bitPattern: original).unsafelyUnwrapped
        }

        /// Returns once every reader that entered before the call has left.
        static func synchronize() {
            let counters = self.counters
            writers.withLock { _ in
                let previous = counters[0].load(ordering: .sequentiallyConsistent)
                counters[0].store(previous ^ 1, ordering: .sequentiallyConsistent)
                let mask = MachineWord.halfMask(generation: previous)
                for stripe in 1...stripeCount {
                    let counter = counters + lineWords * stripe
                    while counter[0].load(ordering: .sequentiallyConsistent) & mask != 0 { sched_yield() }
                }
            }
        }

        /// Releases objects withdrawn from where readers find them, once no reader can hold them.
        /// Call it with no lock held when a release may run user code (a value's `deinit`).
        static func retire(_ objects: [Unmanaged<AnyObject>]) {
            guard !objects.isEmpty else { return }
            synchronize()
            for object in objects { object.release() }
        }
    }
#endif
