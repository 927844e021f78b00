import Dispatch
import Foundation
import Testing

@testable import FactoryKit

/// The lock under every FactoryKit state (`Locked`): mutual exclusion under contention, every
/// waiter woken, and a trap, not a hang, on a recursive acquisition.
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

    #if !canImport(Darwin)
        /// Taking a lock the thread already holds is a FactoryKit bug: it stops with a message
        /// rather than deadlocking.
        @Test func recursiveAcquisitionTraps() async {
            await #expect(processExitsWith: .failure) {
                let lock = Locked(0)
                lock.withLock { _ in lock.withLock { _ in } }
            }
        }

    #endif
}
