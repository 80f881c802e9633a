"""The API's bodies and the export document: one model each validates, serializes, documents."""
