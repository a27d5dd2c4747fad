/// Safe text and the bar encoders, which the clients share without the rest of the core.
@_exported import ZaoanText
