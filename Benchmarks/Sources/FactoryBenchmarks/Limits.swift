/// The highest instructions-per-operation ratio to hand-written code each scenario may reach,
/// as checked in at `Benchmarks/limits.json`.
struct Limits: Codable {
    /// Scenario id to the highest ratio allowed.
    let limits: [String: Double]
    /// Scenario id to the ratio the project aims for (reported, not enforced).
    let targets: [String: Double]?

    /// The scenarios above their limit, described; scenarios without a limit are not checked.
    func check(_ ratios: [(id: String, ratio: Double)]) -> [String] {
        ratios.compactMap { id, ratio in
            guard let limit = limits[id], ratio > limit else { return nil }
            return "\(id) measured \(String(format: "%.2f", ratio))x, limit \(String(format: "%.2f", limit))x"
        }
    }
}
