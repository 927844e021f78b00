import Dispatch
import Foundation

/// Wall-clock measurement: nanoseconds per operation, several runs, median and spread.
struct Measurement: Codable {
    /// The median of the runs.
    let median: Double
    /// The lowest and highest run.
    let low: Double
    let high: Double

    init(runs: [Double]) {
        let sorted = runs.sorted()
        median = sorted[sorted.count / 2]
        low = sorted.first ?? 0
        high = sorted.last ?? 0
    }

    /// The spread as a percentage of the median.
    var spread: Double { median == 0 ? 0 : (high - low) / median * 100 }
}

enum WallClock {
    static let clock = ContinuousClock()

    /// Nanoseconds per operation of one run of `body` over `count` operations.
    static func nanoseconds(_ body: (Int, Sink) -> Void, count: Int) -> Double {
        let sink = Sink()
        let elapsed = clock.measure { body(count, sink) }
        let (seconds, attoseconds) = elapsed.components
        return (Double(seconds) * 1e9 + Double(attoseconds) / 1e9) / Double(count)
    }

    /// Runs `body` `runs` times after a warm-up, alternating with nothing else in between.
    static func measure(_ body: (Int, Sink) -> Void, count: Int, runs: Int) -> Measurement {
        body(max(count / 10, 1), Sink())
        return Measurement(runs: (0..<runs).map { _ in nanoseconds(body, count: count) })
    }

    /// Operations per second of `body` run on `threads` threads at once, `count` operations each.
    static func throughput(threads: Int, count: Int, _ body: @escaping @Sendable (Int, Sink) -> Void) -> Double {
        let group = DispatchGroup()
        let start = DispatchSemaphore(value: 0)
        for _ in 0..<threads {
            group.enter()
            Thread.detachNewThread {
                let sink = Sink()
                start.wait()
                body(count, sink)
                group.leave()
            }
        }
        let began = clock.now
        for _ in 0..<threads { start.signal() }
        group.wait()
        let (seconds, attoseconds) = (clock.now - began).components
        return Double(threads * count) / (Double(seconds) + Double(attoseconds) / 1e18)
    }

    /// How much faster two threads get through the work than one: 2.0 is perfect scaling.
    static func scaling(count: Int, runs: Int, _ body: @escaping @Sendable (Int, Sink) -> Void) -> Double {
        body(count / 10, Sink())
        var ratios: [Double] = []
        for _ in 0..<runs {
            let one = throughput(threads: 1, count: count, body)
            let two = throughput(threads: 2, count: count, body)
            ratios.append(two / one)
        }
        return Measurement(runs: ratios).median
    }
}
