/// Changes a property of `object` out of place: its value is taken out (the property holds
/// `placeholder` meanwhile), changed, and put back.
///
/// Why: a change made in place holds the property for as long as it runs. When it calls
/// into the runtime (an array that grows, a descriptor closed) or the kernel, the compiler
/// cannot prove that nothing in that call reaches the same property, so Swift checks every
/// access to the property for exclusivity at run time: this one and every read of it
/// anywhere, on every request. Out of place, each access is a single load or store, and the
/// compiler proves at build time that none overlap (docs/development.md, "Exclusivity and
/// reference counts").
///
/// While `change` runs the property holds `placeholder`: a `change` that reached the same
/// property again would find it there (empty), where in place it would trap. Nothing here
/// does: the changes are a collection's own operations or a `send`. (The framer, which hands
/// lines to a session that never touches it, is swapped out the same way by hand,
/// `Channel.handLines`: on every read, the key path's retain of the channel counted.)
@inline(__always)
func changeOutOfPlace<Object: AnyObject, Value, Result>(
    _ object: Object, _ property: ReferenceWritableKeyPath<Object, Value>, placeholder: Value,
    _ change: (inout Value) throws -> Result
) rethrows -> Result {
    var taken = object[keyPath: property]
    object[keyPath: property] = placeholder
    defer { object[keyPath: property] = taken }
    return try change(&taken)
}

/// The same for a collection, which is left empty meanwhile.
@inline(__always)
func changeOutOfPlace<Object: AnyObject, Value: RangeReplaceableCollection, Result>(
    _ object: Object, _ property: ReferenceWritableKeyPath<Object, Value>,
    _ change: (inout Value) throws -> Result
) rethrows -> Result {
    try changeOutOfPlace(object, property, placeholder: Value(), change)
}
