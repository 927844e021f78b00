#if canImport(SwiftUI)
    import SwiftUI

    // Where SwiftUI exists, the registration sugar returns an `EmptyView`, so it can stand as a
    // statement of a `#Preview` body or any other view builder:
    //
    //     #Preview {
    //         Container.shared.service { MockService() }
    //         ContentView()
    //     }

    /// An `EmptyView`, made without calling `init()`, which SDKs isolate differently (it is
    /// `nonisolated` in some, main-actor isolated in others) while these registration forms run
    /// anywhere. `EmptyView` is a frozen struct with no stored properties, so the empty tuple is
    /// its whole value; `unsafeBitCast` checks that the sizes match.
    nonisolated private func emptyView() -> EmptyView {
        unsafeBitCast((), to: EmptyView.self)
    }

    extension Factory {
        /// Registers a closure and returns an `EmptyView`, so it can sit in a `#Preview` body:
        /// `Container.shared.service { MockService() }`. The same as ``register(factory:)``.
        @discardableResult
        public func callAsFunction(factory: @escaping VoidFactoryType<T>) -> EmptyView {
            register(factory: factory)
            return emptyView()
        }

        /// Registers a closure for a preview and returns an `EmptyView`:
        /// `Container.shared.service.preview { MockService() }`. The same as
        /// ``register(factory:)``.
        @discardableResult
        public func preview(factory: @escaping VoidFactoryType<T>) -> EmptyView {
            callAsFunction(factory: factory)
        }
    }

    extension ParameterFactory {
        /// Registers a closure and returns an `EmptyView`, so it can sit in a `#Preview` body.
        /// The same as ``register(factory:)``.
        @discardableResult
        public func callAsFunction(factory: @escaping ParameterFactoryType<P, T>) -> EmptyView {
            register(factory: factory)
            return emptyView()
        }

        /// Registers a closure for a preview and returns an `EmptyView`. The same as
        /// ``register(factory:)``.
        @discardableResult
        public func preview(factory: @escaping ParameterFactoryType<P, T>) -> EmptyView {
            callAsFunction(factory: factory)
        }
    }

    extension SharedContainer {
        /// Configures the container in one block and returns an `EmptyView`, so it can sit in a
        /// `#Preview` body: `Container.shared { $0.service { MockService() } }`.
        @discardableResult
        public func callAsFunction(_ transform: (Self) -> Void) -> EmptyView {
            transform(self)
            return emptyView()
        }

        /// Configures the container in one block and returns an `EmptyView`.
        @available(*, deprecated, message: "Use `Container.shared { ... }` in the preview instead.")
        @discardableResult
        public func preview(_ transform: (Self) -> Void) -> EmptyView {
            callAsFunction(transform)
        }

        /// Configures `shared` in one block and returns an `EmptyView`.
        @available(*, deprecated, message: "Use `Container.shared { ... }` in the preview instead.")
        @discardableResult
        public static func preview(_ transform: (Self) -> Void) -> EmptyView {
            shared.callAsFunction(transform)
        }
    }
#endif
