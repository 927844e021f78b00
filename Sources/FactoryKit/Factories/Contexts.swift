import Foundation

/// A situation in which a factory can resolve differently: a launch argument, a SwiftUI
/// preview, a test run, a debug build, the simulator or a device.
///
/// ```swift
/// container.analytics.onDebug { StubAnalytics() }
/// container.api.context(.arg("-mock-api"), .test) { MockAPI() }
/// ```
///
/// Overrides are tried in this order and the first that applies wins: launch arguments (in the
/// order given on the command line), runtime arguments set with ``FactoryContext/setArg(_:forKey:)``
/// (in key order), `preview`, `test`, `simulator`, `device`, `debug`; then a registration; then
/// the definition's own closure. `preview`, `test` and `debug` overrides exist only in debug
/// builds: a release build can never pick up a test double by accident.
public enum FactoryContextType: Equatable, Sendable {
    /// Active when the process was launched with this argument, or it was set at run time with
    /// ``FactoryContext/setArg(_:forKey:)``.
    case arg(String)
    /// Active when any of these arguments is present.
    case args([String])
    /// Active inside SwiftUI previews (debug builds only).
    case preview
    /// Active when running tests (debug builds only).
    case test
    /// Active in debug builds.
    case debug
    /// Active in the simulator.
    case simulator
    /// Active on a device, which includes a Mac or a Linux machine: anywhere but the simulator.
    case device
}

/// The state contexts are decided on: launch arguments, run-time arguments, and whether this
/// is a preview, a test, a simulator or a debug build.
///
/// The fields are computed once at launch and may be changed to simulate a context in tests:
///
/// ```swift
/// FactoryContext.current.isTest = false
/// FactoryContext.setArg("dark", forKey: "theme")   // activates .onArg("dark")
/// ```
///
/// `current` is guarded by a lock, so reading and changing it from several threads is safe.
/// Contexts never clear cached values: a scoped factory keeps the instance it already has.
public struct FactoryContext: Sendable {
    /// The process's launch arguments, the executable's path first.
    public var arguments: [String]
    /// Arguments set at run time by ``setArg(_:forKey:)``, by key; their values act as launch
    /// arguments.
    public var runtimeArguments: [String: String]
    /// Whether the process is a SwiftUI preview (`XCODE_RUNNING_FOR_PREVIEWS` is `1`).
    public var isPreview: Bool
    /// Whether the process is running tests (an XCTest or Swift Testing runner).
    public var isTest: Bool
    /// Whether the process runs in the simulator (`SIMULATOR_UDID` is set).
    public var isSimulator: Bool
    /// Whether FactoryKit was compiled for debugging.
    public var isDebug: Bool

    init(processInfo: ProcessInfo = .processInfo) {
        let environment = processInfo.environment
        let name = processInfo.processName
        arguments = processInfo.arguments
        runtimeArguments = [:]
        isPreview = environment["XCODE_RUNNING_FOR_PREVIEWS"] == "1"
        isTest =
            environment["XCTestConfigurationFilePath"] != nil || name.contains("xctest")
            || name.contains("swiftpm-testing-helper")
        isSimulator = environment["SIMULATOR_UDID"] != nil
        isDebug = ContextKey.isDebugBuild
    }

    /// The process's context.
    ///
    /// Reads, assignments and in-place changes (`FactoryContext.current.isTest = false`) are each
    /// atomic, so changing one field never loses a concurrent change to another.
    public static var current: FactoryContext {
        get { storage.read() }
        _modify {
            storage.lock.lock()
            defer { storage.lock.unlock() }
            yield &storage.value
        }
    }

    /// Activates `.arg(arg)` overrides, recorded under `key` so it can be removed again.
    public static func setArg(_ arg: String, forKey key: String) {
        current.runtimeArguments[key] = arg
    }

    /// Removes a run-time argument set with ``setArg(_:forKey:)``.
    public static func removeArg(forKey key: String) {
        current.runtimeArguments.removeValue(forKey: key)
    }

    /// The process-wide context behind a lock that `_modify` can hold across a `yield`.
    private final class Storage: @unchecked Sendable {
        let lock = NSLock()
        var value = FactoryContext()

        func read() -> FactoryContext {
            lock.lock()
            defer { lock.unlock() }
            return value
        }
    }

    private static let storage = Storage()

    static var promiseTriggersErrorByDefault: Bool {
        let context = current
        return context.isDebug && !context.isPreview
    }

    /// Picks the override that applies now, in the documented order.
    func select(from overrides: ContextOverrides) -> AnyObject? {
        for argument in arguments {
            if let match = overrides[.arg(argument)] { return match }
        }
        for key in runtimeArguments.keys.sorted() {
            if let value = runtimeArguments[key], let match = overrides[.arg(value)] { return match }
        }
        if isPreview, let match = overrides[.preview] { return match }
        if isTest, let match = overrides[.test] { return match }
        if isSimulator, let match = overrides[.simulator] { return match }
        if !isSimulator, let match = overrides[.device] { return match }
        if isDebug, let match = overrides[.debug] { return match }
        return nil
    }
}

/// A context an override is stored under; `.args` registers one per argument.
@usableFromInline
enum ContextKey: Hashable, Sendable {
    case arg(String)
    case preview, test, debug, simulator, device

    /// The keys contexts stand for in this build, each once.
    static func keys(for contexts: [FactoryContextType]) -> [ContextKey] {
        var keys: [ContextKey] = []
        for key in contexts.flatMap(keys(for:)) where !keys.contains(key) { keys.append(key) }
        return keys
    }

    /// The one key a context stands for in this build; `nil` for `.args` and for a context this
    /// build ignores. Allocates nothing, unlike `keys(for:)`.
    static func singleKey(for context: FactoryContextType) -> ContextKey? {
        switch context {
        case .arg(let argument): return .arg(argument)
        case .args: return nil
        case .simulator: return .simulator
        case .device: return .device
        case .preview: return isDebugBuild ? .preview : nil
        case .test: return isDebugBuild ? .test : nil
        case .debug: return isDebugBuild ? .debug : nil
        }
    }

    /// Whether FactoryKit itself was compiled for debugging, which keeps `preview`, `test` and
    /// `debug` overrides.
    static var isDebugBuild: Bool {
        #if DEBUG
            true
        #else
            false
        #endif
    }

    /// The keys a context stands for in this build: `preview`, `test` and `debug` exist only in
    /// debug builds of FactoryKit.
    static func keys(for context: FactoryContextType) -> [ContextKey] {
        guard case .args(let arguments) = context else { return singleKey(for: context).map { [$0] } ?? [] }
        return arguments.map { .arg($0) }
    }
}
