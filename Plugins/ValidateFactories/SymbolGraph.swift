import Foundation

/// The part of a symbol graph file (`Module.symbols.json`, `Module@Other.symbols.json`) that
/// discovery reads: each symbol's kind, path, declaration and place, and who is a member of whom.
struct SymbolGraph: Decodable {
    struct Module: Decodable {
        let name: String
    }

    /// A piece of a declaration, such as a keyword, an identifier or a type's name.
    struct Fragment: Decodable {
        let kind: String
        let spelling: String
        /// The referenced symbol's identifier, for a type's name: it tells FactoryKit's `Factory`
        /// from another type spelled the same.
        let preciseIdentifier: String?
    }

    struct Symbol: Decodable {
        struct Kind: Decodable {
            let identifier: String
        }

        struct Identifier: Decodable {
            let precise: String
        }

        struct Location: Decodable {
            struct Position: Decodable {
                let line: Int
            }

            let uri: String
            let position: Position
        }

        struct FunctionSignature: Decodable {
            struct Parameter: Decodable {
                let name: String
            }

            let parameters: [Parameter]?
            let returns: [Fragment]?
        }

        let kind: Kind
        let identifier: Identifier
        let pathComponents: [String]
        let declarationFragments: [Fragment]?
        let functionSignature: FunctionSignature?
        let location: Location?
    }

    struct Relationship: Decodable {
        let kind: String
        let source: String
        let target: String
    }

    let module: Module
    let symbols: [Symbol]
    let relationships: [Relationship]

    /// Every symbol graph file in `directory`.
    static func all(in directory: URL) throws -> [SymbolGraph] {
        let files = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { $0.lastPathComponent.hasSuffix(".symbols.json") }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        return try files.map { try JSONDecoder().decode(SymbolGraph.self, from: Data(contentsOf: $0)) }
    }
}
