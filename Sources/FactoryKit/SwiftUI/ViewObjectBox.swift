#if canImport(SwiftUI)
    import Combine

    /// A ``ViewObjectHolder`` that SwiftUI can keep in `@StateObject`, which makes it once per
    /// view identity, when it installs the view. `@State` would keep the holder the view value was
    /// initialized with, which a view value rendered more than once (the content of a
    /// `WindowGroup`, shown in several windows) would share between its identities. It never
    /// publishes.
    final class ViewObjectBox<T>: ViewObjectHolder<T>, ObservableObject {}
#endif
