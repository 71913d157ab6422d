/// Splits a gap between two programs into measured steps through the variants in between
/// (A → B → C …: each step is median(next) − median(previous); the steps add up to the gap).
struct Decomposition {
    struct Step {
        let from: String
        let to: String
        let delta: Double
    }

    let steps: [Step]
    let unit: String
    let digits: Int
    let scale: Double

    /// Steps between consecutive available programs among `ids` (missing or failed ones are skipped).
    init(_ series: [RunSeries], ids: [String], unit: String, digits: Int, scale: Double = 1,
         metric: (ProcessResult) -> Double) {
        var points: [(String, Double)] = []
        for id in ids {
            guard let run = series[id: id], let median = run.summary(metric)?.median else { continue }
            points.append((run.contender.label, median * scale))
        }
        var steps: [Step] = []
        for (previous, next) in zip(points, points.dropFirst()) {
            steps.append(Step(from: previous.0, to: next.0, delta: next.1 - previous.1))
        }
        self.steps = steps
        self.unit = unit
        self.digits = digits
        self.scale = scale
    }

    var total: Double { steps.reduce(0) { $0 + $1.delta } }

    /// The step that adds the most.
    var largest: Step? { steps.max { $0.delta < $1.delta } }

    /// "A → B +1.2 ms; B → C −0.3 ms; …"
    var inline: String {
        steps.map { "\($0.from) → \($0.to) **\(Markdown.signed($0.delta, digits)) \(unit)**" }.joined(separator: "; ")
    }
}
