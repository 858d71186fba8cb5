extension NSPredicate {
    func withSubstitutionVariables(_ variables: [String: Any]) -> NSPredicate { self }
}
