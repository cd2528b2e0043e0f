"""The Converse step: build the model request, call the model, check the reply."""
