/// The highest instructions-per-operation ratio to hand-written code each scenario may reach,
/// and absolute instruction counts where one is set, as checked in at `Benchmarks/limits.json`.
struct Limits: Codable {
    /// Scenario id to the highest ratio allowed.
    let limits: [String: Double]
    /// Scenario id to the ratio the project aims for (reported, not enforced).
    let targets: [String: Double]?
    /// Scenario id to the most instructions one FactoryKit operation may cost, for scenarios
    /// bounded absolutely (S11, a first resolution).
    let instructionLimits: [String: Int]?
    /// Scenario id to the instructions per operation the project aims for (reported, not enforced).
    let instructionTargets: [String: Int]?

    /// The scenarios above their limit, described; scenarios without a limit are not checked.
    func check(_ ratios: [(id: String, ratio: Double)]) -> [String] {
        ratios.compactMap { id, ratio in
            guard let limit = limits[id], ratio > limit else { return nil }
            return "\(id) measured \(String(format: "%.2f", ratio))x, limit \(String(format: "%.2f", limit))x"
        }
    }

    /// The scenarios whose FactoryKit side costs more instructions per operation than its
    /// absolute limit, described.
    func check(instructions: [(id: String, count: Int)]) -> [String] {
        instructions.compactMap { id, count in
            guard let limit = instructionLimits?[id], count > limit else { return nil }
            return "\(id) measured \(count) instructions per operation, limit \(limit)"
        }
    }
}
