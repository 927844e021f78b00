#if !canImport(Darwin)
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #endif

    /// Tells ThreadSanitizer, when it is loaded, about the ordering `Locked`'s futex lock provides.
    ///
    /// The lock's atomics are C code, instrumented only when the C target is compiled with the
    /// sanitizer, and its sleeps are raw `futex` system calls, which ThreadSanitizer does not
    /// model; the hooks state the ordering whatever was instrumented. They are looked up once; in a
    /// normal build they are `nil` and cost one branch per lock.
    enum ThreadSanitizerHooks {
        typealias Hook = @convention(c) (UnsafeRawPointer?) -> Void

        static let acquire: Hook? = lookup("__tsan_acquire")

        static let release: Hook? = lookup("__tsan_release")

        private static func lookup(_ name: String) -> Hook? {
            // A null handle is RTLD_DEFAULT: search the executable and everything it loaded.
            guard let symbol = dlsym(nil, name) else { return nil }
            return unsafeBitCast(symbol, to: Hook.self)
        }
    }
#endif
