import torch.nn as nn


class SpeakerClassifier(nn.Module):
    def __init__(self, in_dim, hidden_dim, n_speakers):
        super().__init__()
        self.fc_hidden = nn.Linear(in_dim, hidden_dim)
        self.fc_out = nn.Linear(hidden_dim, n_speakers)

    def forward(self, pooled_text):
        return self.fc_out(nn.functional.relu(self.fc_hidden(pooled_text)))


class GradReverse(nn.Module):
    def __init__(self, scale=1.0):
        super().__init__()
        self.scale = scale

    def forward(self, inputs):
        return inputs

    def backward(self, grad_output):
        return -self.scale * grad_output


def reverse_gradient(inputs, scale=1.0):
    return GradReverse(scale)(inputs)
