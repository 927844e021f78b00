import Dispatch
import Foundation
import Testing

@testable import FactoryKit

/// The lock under every FactoryKit state (`Locked`): mutual exclusion under contention, readers
/// that share it with each other but never with a writer, writers that readers cannot starve,
/// and a trap, not a hang, on a recursive acquisition.
@Suite struct LockTests {
    /// Four threads each add 1 to a plain integer 50,000 times under one lock: any overlap loses
    /// an increment. With more threads than cores, holders are preempted and waiters sleep.
    @Test func excludesUnderContention() {
        let counter = Locked(0)
        let threads = 4
        let rounds = 50_000
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            for _ in 0..<rounds {
                counter.withLock { value in
                    let read = value
                    value = read &+ 1
                }
            }
        }
        #expect(counter.withLock { $0 } == threads * rounds)
    }

    /// Holders that take long keep waiters asleep, and each waiter still gets the lock once.
    @Test func wakesEveryWaiter() {
        let order = Locked<[Int]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            order.withLock { entries in
                entries.append(index)
                // Long enough for the others to find the lock held and sleep.
                var spin = 0
                for step in 0..<20_000 { spin &+= step }
                entries.append(spin == 0 ? -1 : index)
            }
        }
        let entries = order.withLock { $0 }
        #expect(entries.count == 16)
        // Each holder's two entries are adjacent: no one entered while another held the lock.
        for pair in stride(from: 0, to: entries.count, by: 2) {
            #expect(entries[pair] == entries[pair + 1])
        }
        #expect(Set(entries).count == 8)
    }

    /// Writers change two fields one after the other, with work between; readers, sharing the
    /// lock, must never see them differ. Every reader and writer finishes, so no wake-up is lost
    /// between the writers' sleeps on the readers and the readers' sleeps on the writers.
    @Test func readersNeverSeeAWriteHalfDone() {
        let pair = Locked((first: 0, second: 0))
        let torn = Locked(0)
        let readsPerThread = 40_000
        let writesPerThread = 4_000
        runConcurrently(4) { index in
            if index < 2 {
                for _ in 0..<writesPerThread {
                    pair.withLock { pair in
                        pair.first &+= 1
                        var spin = 0
                        for step in 0..<200 { spin &+= step }
                        pair.second = pair.first &+ (spin == 0 ? 1 : 0)
                    }
                }
            } else {
                var seenTorn = 0
                for _ in 0..<readsPerThread {
                    let (first, second) = pair.withSharedLock { (pair.state.first, pair.state.second) }
                    if first != second { seenTorn += 1 }
                }
                torn.withLock { $0 += seenTorn }
            }
        }
        #expect(torn.withLock { $0 } == 0)
        #expect(pair.withLock { $0.first } == 2 * writesPerThread)
    }

    #if !canImport(Darwin)
        /// Two readers are inside at once: each waits, inside, for the other to arrive. (On Apple
        /// platforms a read section takes the lock alone, so this would wait out its timeout.)
        @Test func readersShareTheLock() {
            let lock = Locked(())
            let arrived = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
            let metTheOther = Locked(0)
            runConcurrently(2) { index in
                let (mine, other) = index == 0 ? arrived : (arrived.1, arrived.0)
                let met = lock.withSharedLock {
                    mine.signal()
                    return other.wait(timeout: .now() + 10) == .success
                }
                if met { metTheOther.withLock { $0 += 1 } }
            }
            #expect(metTheOther.withLock { $0 } == 2)
        }

        /// Readers that keep the lock busy do not keep a writer out: once a writer waits, new
        /// readers queue behind it. Each reader leaves only once another has come in (or after
        /// 50 ms), so a lock that let new readers in past a waiting writer would never be free of
        /// them, and the writer would wait until the readers give up after 10 s.
        @Test func readersDoNotStarveAWriter() {
            let lock = Locked(false)
            let entries = Locked(0)
            let giveUp = ContinuousClock.now + .seconds(10)
            let writerWaited = Locked(Duration.zero)
            runConcurrently(4) { index in
                guard index > 0 else {
                    Thread.sleep(forTimeInterval: 0.2)
                    let began = ContinuousClock.now
                    lock.withLock { $0 = true }
                    let waited = ContinuousClock.now - began
                    writerWaited.withLock { $0 = waited }
                    return
                }
                while ContinuousClock.now < giveUp {
                    let written = lock.withSharedLock { () -> Bool in
                        let entry = entries.withLock {
                            $0 += 1
                            return $0
                        }
                        let leaveBy = ContinuousClock.now + .milliseconds(50)
                        while entries.withLock({ $0 }) == entry, ContinuousClock.now < leaveBy { usleep(100) }
                        return lock.state
                    }
                    if written { return }
                }
            }
            let waited = writerWaited.withLock { $0 }
            #expect(waited < .seconds(5), "the writer waited \(waited) behind readers")
        }

        /// Taking a lock the thread already holds is a FactoryKit bug: it stops with a message
        /// rather than deadlocking.
        @Test func recursiveAcquisitionTraps() async {
            await #expect(processExitsWith: .failure) {
                let lock = Locked(())
                lock.withLock { _ in lock.withLock { _ in } }
            }
        }

        /// So is reading under a lock the thread holds for writing.
        @Test func readingUnderOwnWriteTraps() async {
            await #expect(processExitsWith: .failure) {
                let lock = Locked(())
                lock.withLock { _ in lock.withSharedLock {} }
            }
        }
    #endif
}
