"""Model code imported by the samples: bugs that live in a module, not in the training script."""
