import FactoryKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// Memory stays flat: containers created and dropped, and resolutions across every scope, leave
// resident memory where it was after a warm-up. Run it under valgrind to see that nothing leaks.
//
//   MemoryCheck [CONTAINERS [RESOLUTIONS]] [--no-limit]
//
// CONTAINERS (default 100000) containers are created, used and dropped, then RESOLUTIONS (default
// 1000000) resolutions go to long-lived containers, with overrides, resets and push/pop between
// them. A warm-up of a tenth of each comes first, so that lazy globals, metadata caches and the
// allocator's pools exist before resident memory is first read. The program exits 1 if resident
// memory at the end is more than 10% above that first reading, unless `--no-limit` is given:
// under valgrind resident memory is valgrind's, and only its leak report counts.

/// The growth allowed between the reading after warm-up and the one at the end.
let allowedGrowth = 0.10

/// Stops with a usage message.
func usage() -> Never {
    print("usage: MemoryCheck [CONTAINERS [RESOLUTIONS]] [--no-limit]")
    exit(2)
}

/// Resident memory in bytes: the second field of /proc/self/statm, in pages. `nil` without /proc.
func residentBytes() -> Int? {
    guard let file = fopen("/proc/self/statm", "r") else { return nil }
    defer { fclose(file) }
    var line = [CChar](repeating: 0, count: 256)
    guard fgets(&line, Int32(line.count), file) != nil else { return nil }
    let text = line.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

/// Bytes as mebibytes, with one decimal.
func mebibytes(_ bytes: Int) -> String {
    let tenths = (bytes * 10 + 524_288) / 1_048_576
    return "\(tenths / 10).\(tenths % 10) MiB"
}

/// Creates a container, uses it the way an application or a test does, and drops it: every
/// scope, a parameter, an override, and now and then a decorator, push/pop, a container of another
/// type, a task-local `Container.shared` for property wrappers, and singletons of its own.
func useAndDropContainer(_ index: Int, _ tally: Tally) {
    let container = Container()
    tally.total &+= container.screen().checksum
    tally.total &+= container.session().id + container.clock().id + container.profileByID(index % 4).id
    if index % 2 == 0 {
        // A registration that captures its container would never let it go; this one is handed it.
        container.register(\.greeter) { _ in MockGreeter() }
    }
    tally.total &+= container.greeter().id
    if index % 8 == 0 {
        container.decorator { _ in decorations.total &+= 1 }
        container.manager.push()
        container.session.register { Session() }
        tally.total &+= container.session().id + container.visitor().id
        container.manager.pop()
    }
    if index % 16 == 0 {
        let feature = FeatureContainer()
        tally.total &+= feature.feature().id + feature.featureClock().id
        Container.$shared.withValue(container) {
            let presenter = Presenter()
            tally.total &+= presenter.session.id + presenter.request.id
        }
    }
    if index % 64 == 0 {
        // A test's own singletons, dropped with their scope instance at the end of the block.
        Scope.$singleton.withValue(Scope.Singleton()) {
            tally.total &+= container.clock().id + container.screen().checksum
        }
    }
}

/// Resolves `count` times from long-lived containers, rotating through the scopes, with an
/// override and its reset, push/pop and scope resets every few hundred resolutions.
func resolve(_ count: Int, from container: Container, _ tally: Tally) {
    let feature = FeatureContainer.shared
    for index in 0..<count {
        switch index % 12 {
        case 0: tally.total &+= container.request().id
        case 1: tally.total &+= container.session().id
        case 2: tally.total &+= container.store().id
        case 3: tally.total &+= container.clock().id
        case 4: tally.total &+= container.screen().checksum
        case 5: tally.total &+= container.profile(index).id
        case 6: tally.total &+= container.profileByID(index % 64).id
        case 7: tally.total &+= container.greeter().id
        case 8: tally.total &+= container.visitor().id + container.expiring().id
        case 9: tally.total &+= feature.feature().id + feature.featureClock().id
        case 10: tally.total &+= Container.shared.screen().checksum
        default: tally.total &+= feature.featureScreen().checksum
        }
        if index % 500 == 499 {
            switch index / 500 % 4 {
            case 0:
                container.greeter.register { MockGreeter() }
                tally.total &+= container.greeter().id
                container.greeter.reset()
            case 1:
                container.manager.push()
                container.store.register { Store() }
                tally.total &+= container.store().id + container.session().id
                container.manager.pop()
            case 2:
                container.manager.reset(scope: .visit)
                container.manager.reset(options: .scope)
            default:
                Scope.singleton.reset()
                feature.manager.reset()
            }
        }
    }
}

/// One round of the workload: `containers` containers used and dropped, then `resolutions`
/// resolutions from a container that lives through the round.
func run(containers: Int, resolutions: Int, _ tally: Tally) {
    for index in 0..<containers {
        useAndDropContainer(index, tally)
    }
    resolve(resolutions, from: Container(), tally)
}

var counts: [Int] = []
var limited = true
for argument in CommandLine.arguments.dropFirst() {
    if argument == "--no-limit" {
        limited = false
    } else if let count = Int(argument), count > 0, counts.count < 2 {
        counts.append(count)
    } else {
        usage()
    }
}
let containers = counts.count > 0 ? counts[0] : 100_000
let resolutions = counts.count > 1 ? counts[1] : 1_000_000

let tally = Tally()
run(containers: max(containers / 10, 1), resolutions: max(resolutions / 10, 1), tally)
let warm = residentBytes()
run(containers: containers, resolutions: resolutions, tally)
let end = residentBytes()

print("MemoryCheck: \(containers) containers created and dropped, \(resolutions) resolutions")
var grewTooMuch = false
if let warm, let end {
    let growth = Double(end - warm) / Double(warm)
    let percent = (growth * 1000).rounded() / 10
    grewTooMuch = growth > allowedGrowth
    print("  resident after warm-up: \(mebibytes(warm)) (\(warm) bytes)")
    print(
        "  resident at the end:    \(mebibytes(end)) (\(end) bytes), \(percent >= 0 ? "+" : "")\(percent)%"
            + (limited ? " (limit +\(Int(allowedGrowth * 100))%)" : " (not checked: --no-limit)"))
} else {
    print("  resident memory unknown: /proc/self/statm cannot be read")
}
print("  (checksum \(tally.total), \(decorations.total) decorations)")

// What the two shared containers and the singletons still hold is not leaked, but valgrind would
// call part of it lost: a cache slot keeps a `shared` value's weak box in the second case of a
// two-case enum of references, which Swift tags in the pointer's top bit, and valgrind does not
// recognize a tagged pointer as one. Releasing it all here leaves valgrind only real leaks.
Container.shared.manager.reset()
FeatureContainer.shared.manager.reset()
Scope.singleton.reset()

if limited && (warm == nil || end == nil) {
    exit(1)
}
if limited && grewTooMuch {
    print("MemoryCheck: resident memory grew by more than \(Int(allowedGrowth * 100))% after warm-up")
    exit(1)
}
