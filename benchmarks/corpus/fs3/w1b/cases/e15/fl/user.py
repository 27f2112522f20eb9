import copy

import torch
import torch.nn as nn


class User:
    def __init__(self, user_id, model, train_data, test_data, batch_size, learning_rate, local_epochs):
        self.id = user_id
        self.model = copy.deepcopy(model)
        self.train_x, self.train_y = train_data
        self.test_x, self.test_y = test_data
        self.train_samples = len(self.train_y)
        self.test_samples = len(self.test_y)
        self.batch_size = batch_size
        self.local_epochs = local_epochs
        self.loss = nn.CrossEntropyLoss()
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=learning_rate)

    def set_parameters(self, model):
        for local, new in zip(self.model.parameters(), model.parameters()):
            local.data = new.data.clone()

    def get_next_batches(self):
        idx = torch.randint(0, self.train_samples, (self.batch_size,))
        return self.train_x[idx], self.train_y[idx]

    def train(self):
        self.model.train()
        for _ in range(self.local_epochs):
            x, y = self.get_next_batches()
            self.optimizer.zero_grad()
            loss = self.loss(self.model(x), y)
            loss.backward()
            self.optimizer.step()

    def test(self):
        self.model.eval()
        test_acc = 0
        loss = 0
        for start in range(0, self.test_samples, self.batch_size):
            x = self.test_x[start:start + self.batch_size]
            y = self.test_y[start:start + self.batch_size]
            output = self.model(x)
            test_acc += (torch.sum(torch.argmax(output, dim=1) == y)).item()
            loss += self.loss(output, y)
        return test_acc, loss, self.test_samples
