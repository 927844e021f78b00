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
    /// Sections are counted in one word, by generation, so that new readers cannot keep a writer
    /// waiting: bit 0 is the current generation; bits 1 to 31 count readers that entered in
    /// generation 0, bits 32 to 62 those of generation 1. A writer flips the generation, then
    /// waits for the previous generation's count to reach zero. A reader that enters after the
    /// flip loads addresses stored after the withdrawal, so it cannot hold the withdrawn object.
    ///
    /// On Apple platforms `Atomic` needs macOS 15 / iOS 18, newer than FactoryKit requires, so
    /// there nothing is published and every resolution takes the lock.
    @usableFromInline
    enum LockFreeReads {
        /// The generation bit and the two counts. Statically stored, so reading it needs no
        /// lazy-initialization check.
        @usableFromInline static let sections = Atomic<Int>(0)
        /// Serializes writers: a writer may only flip the generation once the previous writer's
        /// readers have left.
        static let writers = Mutex<Void>(())

        static let generationZeroReaders = 0x0000_0000_FFFF_FFFE
        static let generationOneReaders = 0x7FFF_FFFF_0000_0000

        /// Enters a read section; `nil` when a writer flipped the generation at that instant (read
        /// with the lock instead). Pass the result to ``leave(_:)``.
        @inlinable @inline(__always)
        static func enter() -> Int? {
            let generation = sections.load(ordering: .relaxed) & 1
            let increment = generation == 0 ? 2 : 1 << 32
            let before = sections.wrappingAdd(increment, ordering: .acquiringAndReleasing).oldValue
            guard before & 1 == generation else {
                sections.wrappingSubtract(increment, ordering: .releasing)
                return nil
            }
            return increment
        }

        /// Leaves the section `enter` returned `section` for.
        @inlinable @inline(__always)
        static func leave(_ section: Int) {
            sections.wrappingSubtract(section, ordering: .releasing)
        }

        /// Returns once every reader that entered before the call has left.
        static func synchronize() {
            writers.withLock { _ in
                let before = sections.bitwiseXor(1, ordering: .acquiringAndReleasing).oldValue
                let previous = before & 1 == 0 ? generationZeroReaders : generationOneReaders
                while sections.load(ordering: .acquiring) & previous != 0 { sched_yield() }
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
