"""The API's bodies and the export document, each declared once: the model validates a
request, serializes an answer, and gives its part of the OpenAPI document."""
