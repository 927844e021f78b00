import Foundation

// Usage:
//   FactoryBenchmarks                      wall-clock table
//   FactoryBenchmarks run NAME SIDE COUNT  runs one side of one scenario COUNT times (for callgrind)

let arguments = CommandLine.arguments
if arguments.count == 5, arguments[1] == "run" {
    guard let scenario = scenarios.first(where: { $0.name.hasPrefix(arguments[2] + " ") }),
        let count = Int(arguments[4])
    else {
        FileHandle.standardError.write(Data("unknown scenario or count\n".utf8))
        exit(2)
    }
    let body = arguments[3] == "hand" ? scenario.handWritten : scenario.factoryKit
    _ = body(1)
    exit(Int32(body(count) & 1) == 2 ? 1 : 0)
}

let clock = ContinuousClock()
func nanoseconds(_ body: (Int) -> Int, count: Int) -> Double {
    _ = body(count / 10)
    let elapsed = clock.measure { _ = body(count) }
    let (seconds, attoseconds) = elapsed.components
    return (Double(seconds) * 1e9 + Double(attoseconds) / 1e9) / Double(count)
}

print("scenario                  hand ns/op   FactoryKit ns/op   ratio")
for scenario in scenarios {
    var hand: [Double] = []
    var kit: [Double] = []
    for _ in 0..<5 {
        hand.append(nanoseconds(scenario.handWritten, count: 1_000_000))
        kit.append(nanoseconds(scenario.factoryKit, count: 1_000_000))
    }
    let h = hand.sorted()[2]
    let k = kit.sorted()[2]
    print(
        scenario.name.padding(toLength: 26, withPad: " ", startingAt: 0)
            + String(format: "%10.1f   %16.1f   %5.1fx", h, k, k / h))
}
