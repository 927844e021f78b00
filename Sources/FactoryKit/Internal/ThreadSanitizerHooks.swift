#if !canImport(Darwin)
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #endif

    /// Tells ThreadSanitizer, when it is loaded, about the ordering `Synchronization.Mutex` provides.
    ///
    /// On Linux `Mutex` is built on futexes inside the standard library, which ThreadSanitizer does
    /// not instrument, so without these hooks every access to locked state looks like a race. The
    /// hooks are looked up once; in a normal build they are `nil` and cost one branch per lock.
    @usableFromInline
    enum ThreadSanitizerHooks {
        @usableFromInline
        typealias Hook = @convention(c) (UnsafeRawPointer?) -> Void

        @usableFromInline
        static let acquire: Hook? = lookup("__tsan_acquire")

        @usableFromInline
        static let release: Hook? = lookup("__tsan_release")

        private static func lookup(_ name: String) -> Hook? {
            // A null handle is RTLD_DEFAULT: search the executable and everything it loaded.
            guard let symbol = dlsym(nil, name) else { return nil }
            return unsafeBitCast(symbol, to: Hook.self)
        }
    }
#endif
