import Foundation

/// Polls `condition` until it holds or `seconds` have passed, and returns whether it held.
///
/// For effects that happen on a task or thread of their own (a shutdown after a reset, a
/// creation's cancellation). The bound is generous because CI runs these tests under the
/// sanitizers on two loaded cores, where a new task may wait seconds to be scheduled; a test
/// whose condition holds returns as soon as it does.
func eventually(within seconds: Double = 30, _ condition: () async -> Bool) async throws -> Bool {
    let deadline = ContinuousClock.now + .seconds(seconds)
    while ContinuousClock.now < deadline {
        if await condition() { return true }
        try await Task.sleep(for: .milliseconds(5))
    }
    return await condition()
}
