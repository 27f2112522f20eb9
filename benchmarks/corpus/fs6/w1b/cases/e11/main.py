import torch
import torch.nn as nn

from data_utils import Corpus
from model import RNNLM

# Hyper-parameters
embed_size = 32
hidden_size = 64
num_layers = 1
num_epochs = 1
batch_size = 8
seq_length = 12
learning_rate = 0.002

torch.manual_seed(0)

corpus = Corpus(vocab_size=150)
ids = corpus.get_data(num_tokens=batch_size * seq_length * 6, batch_size=batch_size)
vocab_size = len(corpus.dictionary)
num_batches = ids.size(1) // seq_length

model = RNNLM(vocab_size, embed_size, hidden_size, num_layers)
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=learning_rate)


def evaluate(data):
    model.eval()
    total, count = 0.0, 0
    states = (torch.zeros(num_layers, batch_size, hidden_size),
              torch.zeros(num_layers, batch_size, hidden_size))
    with torch.no_grad():
        for i in range(0, data.size(1) - seq_length, seq_length):
            inputs = data[:, i:i + seq_length]
            targets = data[:, (i + 1):(i + 1) + seq_length]
            outputs, states = model(inputs, states)
            total += criterion(outputs, targets.reshape(-1)).item()
            count += 1
    model.train()
    return total / max(count, 1)


for epoch in range(num_epochs):
    # Set initial hidden and cell states
    states = (torch.zeros(num_layers, batch_size, hidden_size),
              torch.zeros(num_layers, batch_size, hidden_size))

    for i in range(0, ids.size(1) - seq_length, seq_length):
        # Get mini-batch inputs and targets
        inputs = ids[:, i:i + seq_length]
        targets = ids[:, (i + 1):(i + 1) + seq_length]

        # Forward pass
        outputs, states = model(inputs, states)
        loss = criterion(outputs, targets.reshape(-1))

        # Backward and optimize
        model.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 0.5)
        optimizer.step()

        step = (i + 1) // seq_length
        print('Epoch [{}/{}], Step[{}/{}], Loss: {:.4f}, Perplexity: {:5.2f}'
              .format(epoch + 1, num_epochs, step, num_batches, loss.item(), torch.exp(loss).item()))

    print('Validation loss: {:.4f}'.format(evaluate(ids)))
