import string

import torch
import torch.nn as nn

all_letters = string.ascii_letters + " .,;'"
n_letters = len(all_letters)
all_categories = ["English", "French", "German", "Italian"]
n_categories = len(all_categories)


def line_to_tensor(line):
    tensor = torch.zeros(len(line), 1, n_letters)
    for li, letter in enumerate(line):
        tensor[li][0][all_letters.find(letter)] = 1
    return tensor


class RNN(nn.Module):
    def __init__(self, input_size, hidden_size, output_size):
        super().__init__()
        self.hidden_size = hidden_size
        self.i2h = nn.Linear(input_size + hidden_size, hidden_size)
        self.i2o = nn.Linear(input_size + hidden_size, output_size)
        self.softmax = nn.LogSoftmax(dim=1)

    def forward(self, input, hidden):
        combined = torch.cat((input, hidden), 1)
        hidden = self.i2h(combined)
        output = self.softmax(self.i2o(combined))
        return output, hidden

    def init_hidden(self):
        return torch.zeros(1, self.hidden_size)


torch.manual_seed(0)
n_hidden = 64
rnn = RNN(n_letters, n_hidden, n_categories)

learning_rate = 0.005
criterion = nn.NLLLoss()
optimizer = torch.optim.SGD(rnn.parameters(), lr=learning_rate)


def train(category_tensor, line_tensor):
    hidden = rnn.init_hidden()
    optimizer.zero_grad()
    for i in range(line_tensor.size(0)):
        output, hidden = rnn(line_tensor[i], hidden)
    loss = criterion(output, category_tensor)
    loss.backward()
    optimizer.step()
    return output, loss.item()


def random_training_pair():
    cat = torch.randint(0, n_categories, (1,))
    length = 4 + int(cat)
    line = "".join(all_letters[int(i)] for i in torch.randint(0, 26, (length,)))
    return cat, line_to_tensor(line)


rnn = RNN(n_letters, n_hidden, n_categories)
i2o_before = rnn.i2o.weight.detach().clone()

current_loss = 0
for it in range(1, 301):
    category_tensor, line_tensor = random_training_pair()
    output, loss = train(category_tensor, line_tensor)
    current_loss += loss
    if it % 100 == 0:
        print(f"iter {it}: average loss {current_loss / 100:.4f}")
        current_loss = 0
print("trained rnn.i2o changed:", not torch.equal(i2o_before, rnn.i2o.weight))
