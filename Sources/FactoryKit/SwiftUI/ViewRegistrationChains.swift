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
