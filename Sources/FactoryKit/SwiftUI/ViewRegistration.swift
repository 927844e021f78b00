/// A registration that a SwiftUI view hierarchy asks for with `withContainer(_:_:)`, applied to
/// the containers its views resolve from and undone when it is released.
package protocol ViewRegistration: AnyObject, Sendable {
    /// Applies the registration to the container that views below `containers` resolve from,
    /// unless it is applied there already. Views apply registrations on the main actor, which
    /// keeps two applications from racing.
    @MainActor func apply(in containers: ViewContainers)
}

/// Registers `factory` for one factory key path, in each container a view below it resolves
/// from, the first time such a view creates its object. `withContainer(_:_:)` uses it for custom
/// container types, of which FactoryKit cannot make a child.
///
/// It remembers what each registration replaced. When ``undo()`` runs, or the value is released
/// (the view that asked for it leaves the hierarchy), each container gets back what was there
/// before, in whatever order registrations of the same factory are released: they form a chain
/// per container and factory (``ViewRegistrationChains``), and one released under a later one
/// hands what it replaced to that one. Something registered or reset since wins over the undo.
package final class FactoryViewRegistration<C: SharedContainer, T>: ViewRegistration, @unchecked Sendable {
    // `factory` is a `VoidFactoryType`, not `@Sendable` by design, like every registered closure;
    // it is only handed to the container. `applied` is guarded by its lock.
    private let keyPath: KeyPath<C, Factory<T>>
    private let factory: VoidFactoryType<T>
    private let applied = Locked<[ViewRegistrationChains.Link]>([])

    /// A registration of `factory` for the factory at `keyPath`, not yet applied anywhere.
    package init(_ keyPath: KeyPath<C, Factory<T>>, factory: @escaping VoidFactoryType<T>) {
        self.keyPath = keyPath
        self.factory = factory
    }

    deinit {
        undo()
    }

    /// How many containers the registration is applied to now.
    package var appliedCount: Int {
        applied.withLock { $0.count }
    }

    @MainActor
    package func apply(in containers: ViewContainers) {
        let container = containers.container(C.self)
        let isApplied = applied.withLock { links in
            links.contains { $0.container === container }
        }
        if isApplied { return }
        let registration = container[keyPath: keyPath].registration
        let build = self.factory
        let box = ClosureBox<Void, T> { _, _ in build() }
        guard let replaced = registration.registerReplacing(box, validator: SyncValidator<T>.self) else {
            return
        }
        let link = ViewRegistrationChains.Link(
            container: container, factory: keyPath, box: box, replaced: replaced,
            restore: { replaced, box in registration.restoreRegistration(replaced, ifCurrent: box) })
        ViewRegistrationChains.append(link)
        applied.withLock { $0.append(link) }
    }

    /// Gives every container what it should hold without this registration: the registration of
    /// the latest one still in place above the same factory, else what was there before the
    /// first, unless something registered or reset the factory since.
    package func undo() {
        let links = applied.withLock { links in
            defer { links.removeAll() }
            return links
        }
        ViewRegistrationChains.remove(links)
    }
}

/// The registrations `FactoryViewRegistration` has applied, per container and factory, oldest
/// first, and what was registered before the first.
///
/// The lock guards only this bookkeeping; the container is written after it is released (a write
/// may release cached values, whose `deinit` is the app's code). Each write is a compare-and-swap
/// (`restoreRegistration(_:ifCurrent:)`), so a registration made since is never overwritten. When
/// undos of one chain overlap, one may put back a registration that another has just removed;
/// whoever put it back sees that afterwards and swaps it for what should be there, until the
/// container holds a registration of a link still in place, or the original.
enum ViewRegistrationChains {
    /// One registration applied to one container.
    final class Link: @unchecked Sendable {
        // `box` and the closures are handed to the container, never called here; `reinstall` is
        // guarded by the chains' lock.
        let container: AnyObject
        let key: ChainKey
        let box: AnyObject
        /// What the container held before this link, as `registerReplacing` reported it.
        let replaced: ReplacedRegistration
        /// This link's registration, to put it back once a link above it goes: known once a link
        /// is applied over it.
        var reinstall: ReplacedRegistration?
        let restore: (ReplacedRegistration, AnyObject) -> Void

        init<C: SharedContainer, T>(
            container: C, factory: KeyPath<C, Factory<T>>, box: AnyObject, replaced: ReplacedRegistration,
            restore: @escaping (ReplacedRegistration, AnyObject) -> Void
        ) {
            self.container = container
            key = ChainKey(container: ObjectIdentifier(container), factory: factory)
            self.box = box
            self.replaced = replaced
            self.restore = restore
        }
    }

    struct ChainKey: Hashable, @unchecked Sendable {
        // `AnyKeyPath` is immutable; it is only hashed and compared.
        let container: ObjectIdentifier
        let factory: AnyKeyPath
    }

    private struct Chain {
        var links: [Link] = []
        /// What was registered before the first link.
        var original: ReplacedRegistration
        /// Links taken out while an undo of this chain was writing, by their boxes: a
        /// registration an overlapping undo may have put back.
        var removed: [ObjectIdentifier: Link] = [:]
        /// Undos of this chain writing to the container now.
        var writing = 0

        /// What the container should hold now; `nil` when that is unknown because something
        /// else was registered over the top link.
        var wanted: ReplacedRegistration? {
            guard let top = links.last else { return original }
            return top.reinstall
        }

        /// Whether nothing is left to remember.
        var isFinished: Bool { links.isEmpty && writing == 0 }
    }

    private static let chains = Locked<[ChainKey: Chain]>([:])

    /// Adds `link`, just applied to its container, on top of its chain.
    static func append(_ link: Link) {
        chains.withLock { chains in
            guard var chain = chains[link.key] else {
                chains[link.key] = Chain(links: [link], original: link.replaced)
                return
            }
            if let top = chain.links.last, link.replaced.registration === top.box { top.reinstall = link.replaced }
            chain.links.append(link)
            chains[link.key] = chain
        }
    }

    /// Takes `links` out of their chains and gives each container what it should hold now.
    static func remove(_ links: [Link]) {
        for link in links { remove(link) }
    }

    private static func remove(_ link: Link) {
        // What to swap in for which registration; `nil` when the container needs no write.
        var swap: (wanted: ReplacedRegistration, current: AnyObject)? = chains.withLock { chains in
            guard var chain = chains[link.key], let index = chain.links.firstIndex(where: { $0 === link }) else {
                return nil
            }
            let wasTop = index == chain.links.count - 1
            chain.links.remove(at: index)
            if chain.writing > 0 { chain.removed[ObjectIdentifier(link.box)] = link }
            defer { chains[link.key] = chain.isFinished ? nil : chain }
            guard wasTop, let wanted = chain.wanted else { return nil }
            chain.writing += 1
            return (wanted, link.box)
        }
        while let (wanted, current) = swap {
            link.restore(wanted, current)
            swap = chains.withLock { chains in
                guard var chain = chains[link.key] else { return nil }
                defer { chains[link.key] = chain.isFinished ? nil : chain }
                // If what was put back has been taken out meanwhile, replace it in turn.
                if let installed = wanted.registration, chain.removed[ObjectIdentifier(installed)] != nil,
                    let next = chain.wanted, next.registration !== installed
                {
                    return (next, installed)
                }
                chain.writing -= 1
                if chain.writing == 0 { chain.removed = [:] }
                return nil
            }
        }
    }
}
