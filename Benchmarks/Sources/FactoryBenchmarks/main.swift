import Foundation

// FactoryKit against hand-written wiring, in one run.
//
//   swift run -c release --package-path Benchmarks                    wall-clock table
//   ... FactoryBenchmarks --json                                       the same, as JSON
//   ... FactoryBenchmarks --instructions [--check limits.json] [--json]
//                                                                      instructions per operation
//   ... FactoryBenchmarks run ID hand|kit COUNT                        one side of one scenario
//   ... FactoryBenchmarks mixed [--rounds N] [--runs N] [--check [--limit RATIO]] [--json]
//                                                                      the write-heavy workload

let arguments = Array(CommandLine.arguments.dropFirst())
prepareScenarios()

func scenario(_ id: String) -> Scenario? {
    // S5's floor row is only run on its own, by `run S5 kit COUNT`; S11 only by instructions.
    scenarios.first { $0.id == id } ?? [sharedReadFloor, coldStart].first { $0.id == id }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("FactoryBenchmarks: \(message)\n".utf8))
    exit(2)
}

func printJSON<T: Encodable>(_ value: T) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    print(String(decoding: try! encoder.encode(value), as: UTF8.self))
}

if arguments.first == "run" {
    guard arguments.count == 4, let scenario = scenario(arguments[1]), let count = Int(arguments[3]) else {
        fail("usage: run ID hand|kit COUNT")
    }
    guard scenario.id != coldStart.id || count <= coldTypeCount else { fail("S11 has \(coldTypeCount) types") }
    let body = arguments[2] == "hand" ? scenario.handWritten : scenario.factoryKit
    let sink = Sink()
    // Warm caches and lazy globals, the same in both runs callgrind compares.
    if scenario.warmsUp { body(100, sink) }
    body(count, sink)
    exit(0)
}

let json = arguments.contains("--json")

/// The value following `name` among the arguments, if any.
func option(_ name: String) -> String? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

if arguments.first == "mixed" {
    struct MixedReport: Codable {
        let rounds: Int
        let factoryKit: Measurement
        /// The global-lock container reached Factory-shaped (see `GlobalLockContainer.Accessor`):
        /// the same design serving the same API, which `--check` compares against.
        let baseline: Measurement
        let ratio: Double
        let limit: Double
        /// The same container reached by direct calls, and FactoryKit's ratio to it: not checked;
        /// the difference from `ratio` is what the API's accessors cost any container behind it.
        let directBaseline: Measurement
        let ratioToDirect: Double
    }
    guard let rounds = Int(option("--rounds") ?? "10000"), let runs = Int(option("--runs") ?? "11"),
        let limit = Double(option("--limit") ?? "1.0"), rounds > 0, runs > 0
    else { fail("usage: mixed [--rounds N] [--runs N] [--check [--limit RATIO]] [--json]") }
    _ = Mixed.measure(rounds: max(rounds / 10, 1), runs: 1)  // threads, lazy globals, singletons
    let (factoryKit, direct, factoryShaped) = Mixed.measure(rounds: rounds, runs: runs)
    let report = MixedReport(
        rounds: rounds, factoryKit: factoryKit, baseline: factoryShaped,
        ratio: factoryKit.median / factoryShaped.median, limit: limit, directBaseline: direct,
        ratioToDirect: factoryKit.median / direct.median)
    if json {
        printJSON(report)
    } else {
        print(
            "Mixed workload: \(rounds) rounds on \(Mixed.queueCount) serial queues, each a register and "
                + "\(Mixed.resolutionsPerRound) resolutions of a five-factory graph")
        print("Seconds, median of \(runs) runs (spread = (max - min) / median)")
        print("side                               median   spread")
        let sides = [
            ("one global lock, Factory-shaped", factoryShaped), ("one global lock, direct calls", direct),
            ("FactoryKit", factoryKit),
        ]
        for (name, measurement) in sides {
            print(
                name.padding(toLength: 33, withPad: " ", startingAt: 0)
                    + String(format: "%8.3f   %5.1f%%", measurement.median, measurement.spread))
        }
        print(String(format: "FactoryKit / one global lock, Factory-shaped: %.2fx (limit %.2fx)", report.ratio, limit))
        print(
            String(
                format: "FactoryKit / one global lock, direct calls: %.2fx (not checked: adds the API's accessors)",
                report.ratioToDirect))
    }
    if arguments.contains("--check") {
        guard report.ratio <= limit else {
            print(
                String(
                    format: "LIMIT EXCEEDED: mixed workload %.2fx the Factory-shaped baseline, limit %.2fx",
                    report.ratio,
                    limit))
            exit(1)
        }
        print("Mixed workload within its limit.")
    }
    exit(0)
}

if arguments.contains("--instructions") {
    struct Row: Codable {
        let id: String
        let title: String
        let hand: InstructionCount
        let factoryKit: InstructionCount
        let ratio: Double
    }
    let count = 2_000
    var rows: [Row] = []
    var sharedRead: InstructionCount?
    do {
        // What `Container.shared` alone costs, handed to the same sink: the floor under S2.
        if !json { sharedRead = try InstructionCounts.measure(sharedReadFloor, side: "kit", count: count) }
        for scenario in scenarios {
            let hand = try InstructionCounts.measure(scenario, side: "hand", count: count)
            let kit = try InstructionCounts.measure(scenario, side: "kit", count: count)
            rows.append(
                Row(
                    id: scenario.id, title: scenario.title, hand: hand, factoryKit: kit,
                    ratio: Double(kit.instructions) / Double(max(hand.instructions, 1))))
        }
        // Cold start: types count ..< 2 × count, resolved after types 0 ..< count.
        let hand = try InstructionCounts.measure(coldStart, side: "hand", count: coldTypeCount / 2)
        let kit = try InstructionCounts.measure(coldStart, side: "kit", count: coldTypeCount / 2)
        rows.append(
            Row(
                id: coldStart.id, title: coldStart.title, hand: hand, factoryKit: kit,
                ratio: Double(kit.instructions) / Double(max(hand.instructions, 1))))
    } catch {
        fail("\(error)")
    }
    if json {
        printJSON(rows)
    } else {
        print("Instructions per operation (callgrind), FactoryKit against hand-written code")
        print("id  scenario                        hand   FactoryKit   ratio   allocations (hand / kit)")
        for row in rows {
            print(
                row.id.padding(toLength: 4, withPad: " ", startingAt: 0)
                    + row.title.padding(toLength: 30, withPad: " ", startingAt: 0)
                    + String(
                        format: "%6d   %10d   %5.2fx   %.1f / %.1f",
                        row.hand.instructions, row.factoryKit.instructions, row.ratio,
                        row.hand.allocations, row.factoryKit.allocations))
        }
        if let sharedRead, let singleton = rows.first(where: { $0.id == "S2" }) {
            let ratio = Double(sharedRead.instructions) / Double(max(singleton.hand.instructions, 1))
            print(
                "Floor under S2: reading Container.shared alone, into the same sink, costs "
                    + "\(sharedRead.instructions) (\(String(format: "%.2f", ratio))x S2's hand-written side).")
        }
    }
    if let index = arguments.firstIndex(of: "--check"), index + 1 < arguments.count {
        let path = arguments[index + 1]
        guard let data = FileManager.default.contents(atPath: path),
            let limits = try? JSONDecoder().decode(Limits.self, from: data)
        else { fail("cannot read limits from \(path)") }
        let failures =
            limits.check(rows.map { ($0.id, $0.ratio) })
            + limits.check(instructions: rows.map { ($0.id, $0.factoryKit.instructions) })
        if failures.isEmpty {
            print("All scenarios within \(path).")
        } else {
            for failure in failures { print("LIMIT EXCEEDED: \(failure)") }
            exit(1)
        }
    }
    exit(0)
}

// Wall clock.
struct WallRow: Codable {
    let id: String
    let title: String
    let hand: Measurement
    let factoryKit: Measurement
    let ratio: Double
}
struct ScalingRow: Codable {
    let id: String
    let title: String
    let handScaling: Double
    let factoryKitScaling: Double
    let relative: Double
}

let count = 200_000
let runs = 7
var rows: [WallRow] = []
for scenario in scenarios {
    let hand = WallClock.measure(scenario.handWritten, count: count, runs: runs)
    let kit = WallClock.measure(scenario.factoryKit, count: count, runs: runs)
    rows.append(
        WallRow(id: scenario.id, title: scenario.title, hand: hand, factoryKit: kit, ratio: kit.median / hand.median))
}
var scaling: [ScalingRow] = []
for (suffix, base) in [("unique", scenario("S1")!), ("singleton", scenario("S2")!), ("shared read", sharedReadFloor)] {
    let hand = WallClock.scaling(count: count, runs: 5, base.handWritten)
    let kit = WallClock.scaling(count: count, runs: 5, base.factoryKit)
    scaling.append(
        ScalingRow(
            id: "S5", title: "2 threads, \(suffix)", handScaling: hand, factoryKitScaling: kit, relative: kit / hand))
}

if json {
    struct Report: Codable {
        let singleThreaded: [WallRow]
        let twoThreads: [ScalingRow]
    }
    printJSON(Report(singleThreaded: rows, twoThreads: scaling))
} else {
    print("Wall clock, ns per operation: median of \(runs) runs (spread = (max - min) / median)")
    print("id  scenario                          hand   spread   FactoryKit   spread    ratio")
    for row in rows {
        print(
            row.id.padding(toLength: 4, withPad: " ", startingAt: 0)
                + row.title.padding(toLength: 30, withPad: " ", startingAt: 0)
                + String(
                    format: "%8.1f   %5.1f%%   %10.1f   %5.1f%%   %5.2fx",
                    row.hand.median, row.hand.spread, row.factoryKit.median, row.factoryKit.spread, row.ratio))
    }
    print("\nTwo threads against one (throughput; 2.00 = perfect scaling)")
    print("id  scenario                          hand   FactoryKit   FactoryKit / hand")
    for row in scaling {
        print(
            row.id.padding(toLength: 4, withPad: " ", startingAt: 0)
                + row.title.padding(toLength: 30, withPad: " ", startingAt: 0)
                + String(format: "%8.2f   %10.2f   %6.0f%%", row.handScaling, row.factoryKitScaling, row.relative * 100)
        )
    }
}
