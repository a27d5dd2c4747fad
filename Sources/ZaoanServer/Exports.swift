/// The system layer the service shares with the clients (errors, sockets, socket paths,
/// signals), visible to everything that imports the service.
@_exported import ZaoanSystem
