import FactoryKit
import Foundation
import Testing

/// Random operation sequences applied to FactoryKit and to `ReferenceModel`, comparing every
/// value and decorator call. A mismatch is shrunk to a shortest failing sequence and printed with
/// its seed.
///
/// `FACTORYKIT_MODEL_SEQUENCES` sets how many sequences run (2,000 by default, a few seconds;
/// CI runs 10,000 in its debug run) and
/// `FACTORYKIT_MODEL_SEED` the first seed (random by default, printed either way), so a soak is
/// `FACTORYKIT_MODEL_SEQUENCES=1000000 swift test --filter ReferenceModelTests` and a failure replays
/// with its seed and `FACTORYKIT_MODEL_SEQUENCES=1`.
@Suite
struct ReferenceModelTests {
    static let operationsPerSequence = 40

    /// Runs on a thread of its own: the sequences keep a thread busy for seconds (longer under the
    /// sanitizers), and a test running that long on the cooperative pool, which has one thread per
    /// core, starves the tasks of the tests running beside it.
    @Test func factoryKitBehavesAsTheReferenceModel() async {
        let environment = ProcessInfo.processInfo.environment
        let count = environment["FACTORYKIT_MODEL_SEQUENCES"].flatMap(Int.init) ?? 2_000
        let firstSeed = environment["FACTORYKIT_MODEL_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 1..<(1 << 48))
        let outcome = await onThreadOfItsOwn { Self.run(count: count, firstSeed: firstSeed) }
        switch outcome {
        case .success(let operations):
            print(
                "ReferenceModelTests: \(count) sequences, \(operations) operations, first seed \(firstSeed): no difference"
            )
        case .failure(let difference):
            Issue.record(Comment(rawValue: difference.description))
        }
    }

    /// A sequence on which FactoryKit and the model differ, shrunk, with its seed.
    struct Difference: Error, CustomStringConvertible {
        let description: String
    }

    /// Applies `count` sequences from `firstSeed` on; how many operations ran, or the first
    /// difference.
    static func run(count: Int, firstSeed: UInt64) -> Result<Int, Difference> {
        var operations = 0
        for index in 0..<UInt64(count) {
            let seed = firstSeed &+ index
            var generator = SeededGenerator(seed: seed)
            let sequence = ModelOperation.randomSequence(count: Self.operationsPerSequence, using: &generator)
            operations += sequence.count
            guard Self.firstMismatch(in: sequence) != nil else { continue }
            let shrunk = Self.shrink(sequence)
            let mismatch = Self.firstMismatch(in: shrunk) ?? "(the shrunk sequence no longer fails)"
            let steps = shrunk.enumerated().map { "  \($0.offset): \($0.element)" }.joined(separator: "\n")
            return .failure(
                Difference(
                    description: """
                        FactoryKit differs from the reference model (seed \(seed), replay with \
                        FACTORYKIT_MODEL_SEED=\(seed) FACTORYKIT_MODEL_SEQUENCES=1):
                        \(steps)
                        \(mismatch)
                        """))
        }
        return .success(operations)
    }

    /// Where FactoryKit and the model first differ on `sequence`, described; `nil` if nowhere.
    static func firstMismatch(in sequence: [ModelOperation]) -> String? {
        var model = ReferenceModel()
        let harness = ModelHarness()
        var matcher = InstanceMatcher()
        for (step, operation) in sequence.enumerated() {
            let (expected, expectedDecorations) = model.apply(operation)
            let (actual, actualDecorations) = harness.apply(operation)
            if let problem = matcher.compare(expected, actual) {
                return "step \(step) (\(operation)): \(problem)"
            }
            if let problem = matcher.compare(expectedDecorations, actualDecorations) {
                return "step \(step) (\(operation)): \(problem)"
            }
        }
        return nil
    }

    /// Removes operations while the sequence still fails: halves first, then ever smaller chunks
    /// down to single operations.
    static func shrink(_ sequence: [ModelOperation]) -> [ModelOperation] {
        var current = sequence
        var chunk = max(current.count / 2, 1)
        while chunk >= 1 {
            var start = 0
            while start < current.count {
                var candidate = current
                candidate.removeSubrange(start..<min(start + chunk, current.count))
                candidate = withoutUnmatchedPops(candidate)
                if firstMismatch(in: candidate) != nil {
                    current = candidate
                } else {
                    start += chunk
                }
            }
            chunk /= 2
        }
        return current
    }
}

/// `sequence` without the `pop()`s that shrinking left without a `push()` (each would only log a
/// note).
func withoutUnmatchedPops(_ sequence: [ModelOperation]) -> [ModelOperation] {
    var pushes = [0, 0, 0]
    return sequence.filter { operation in
        switch operation.action {
        case .push: pushes[operation.container] += 1
        case .replaceContainer: pushes[operation.container] = 0
        case .pop:
            guard pushes[operation.container] > 0 else { return false }
            pushes[operation.container] -= 1
        default: break
        }
        return true
    }
}

/// Pairs the model's instance numbers with FactoryKit's serial numbers, one to one.
struct InstanceMatcher {
    private var serialOfInstance: [Int: Int] = [:]
    private var instanceOfSerial: [Int: Int] = [:]

    mutating func compare(_ expected: PredictedValue?, _ actual: ModelValue?) -> String? {
        switch (expected, actual) {
        case (nil, nil): return nil
        case (let expected?, let actual?): return compareValue(expected, actual)
        case (let expected, let actual):
            return "expected \(expected.map(describe) ?? "no value"), got \(actual.map(describe) ?? "no value")"
        }
    }

    mutating func compare(
        _ expected: [PredictedDecoration], _ actual: [(ModelDecorations.Kind, Int)]
    ) -> String? {
        let expectedText = expected.map { "\($0.kind) on instance \($0.instance)" }
        let problem = "expected decorators \(expectedText), got \(actual.map { "\($0.0) on serial \($0.1)" })"
        guard expected.count == actual.count else { return problem }
        for (prediction, call) in zip(expected, actual) {
            let kind: ModelDecorations.Kind =
                switch prediction.kind {
                case .factory(let instantiated): .factory(instantiated: instantiated)
                case .container: .container
                }
            guard kind == call.0, serialOfInstance[prediction.instance] == call.1 else { return problem }
        }
        return nil
    }

    private mutating func compareValue(_ expected: PredictedValue, _ actual: ModelValue) -> String? {
        let mismatch = "expected \(describe(expected)), got \(describe(actual))"
        guard expected.label == actual.label, expected.children.count == actual.children.count else { return mismatch }
        if expected.isNew {
            guard instanceOfSerial[actual.serial] == nil else { return mismatch }
            serialOfInstance[expected.instance] = actual.serial
            instanceOfSerial[actual.serial] = expected.instance
        } else if serialOfInstance[expected.instance] != actual.serial {
            return mismatch
        }
        for (part, actualPart) in zip(expected.children, actual.children) {
            if let problem = compareValue(part, actualPart) { return problem }
        }
        return nil
    }

    private func describe(_ value: PredictedValue) -> String {
        let which = value.isNew ? "a new \(value.label)" : "the existing \(value.label) #\(value.instance)"
        return value.children.isEmpty ? which : "\(which) of [\(value.children.map(describe).joined(separator: ", "))]"
    }

    private func describe(_ value: ModelValue) -> String {
        let which: String
        if let instance = instanceOfSerial[value.serial] {
            which = "the existing \(value.label) #\(instance)"
        } else {
            which = "a new \(value.label)"
        }
        return value.children.isEmpty ? which : "\(which) of [\(value.children.map(describe).joined(separator: ", "))]"
    }
}

/// Runs `body` on a new thread and returns its result, without holding a thread of the cooperative
/// pool meanwhile.
func onThreadOfItsOwn<Result: Sendable>(_ body: @escaping @Sendable () -> Result) async -> Result {
    await withCheckedContinuation { (continuation: CheckedContinuation<Result, Never>) in
        let thread = Thread { continuation.resume(returning: body()) }
        thread.stackSize = 8 << 20
        thread.start()
    }
}
