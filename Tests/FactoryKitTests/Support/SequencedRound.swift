import Foundation

/// A writer's steps, numbered like a sequence lock: odd while a step is in progress, even with the
/// round it finished.
final class SequencedRound: @unchecked Sendable {
    private let lock = NSCondition()
    private var sequence = 0
    private var round = 0
    private var checkedRound = 0
    private var finished = false

    /// A reader checked a resolution made in `round`'s window.
    func checked(_ round: Int) {
        lock.withLock {
            checkedRound = max(checkedRound, round)
            lock.broadcast()
        }
    }

    /// Waits until a reader has checked `round`; `false` after 20 s.
    func awaitCheck(of round: Int) -> Bool {
        let deadline = Date(timeIntervalSinceNow: 20)
        return lock.withLock {
            while checkedRound < round {
                if !lock.wait(until: deadline) { return false }
            }
            return true
        }
    }

    func begin() { lock.withLock { sequence += 1 } }

    func end(_ round: Int) {
        lock.withLock {
            self.round = round
            sequence += 1
        }
    }

    func finish() { lock.withLock { finished = true } }

    var isFinished: Bool { lock.withLock { finished } }

    func read() -> (sequence: Int, round: Int) { lock.withLock { (sequence, round) } }
}
