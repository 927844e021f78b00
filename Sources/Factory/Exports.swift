// The module Factory 2.x clients import. A package written for Factory 2.x names the product
// `Factory` and writes `import Factory`; this module re-exports FactoryKit under that name, so such
// a package builds unchanged (`Factory.Factory<T>` included). New code imports FactoryKit.
@_exported import FactoryKit
