#!/usr/bin/env python3
import torch

##########################################################################################
# Settings
##########################################################################################

torch.manual_seed(0)
num_tokens = 20
seq_len = 12
num_classes = 3
num_features = 16
batch_size = 16
num_samples = 192
num_epochs = 2
learning_rate = 1e-3

##########################################################################################
# Data
##########################################################################################

xs = torch.randint(0, num_tokens, (num_samples, seq_len))
ys = (xs == 7).sum(1).clamp(max=num_classes - 1)
xs_train, ys_train = xs[:160], ys[:160]
xs_val, ys_val = xs[160:], ys[160:]

loader_train = torch.utils.data.DataLoader(
    torch.utils.data.TensorDataset(xs_train, ys_train), batch_size=batch_size, shuffle=True
)
loader_val = torch.utils.data.DataLoader(
    torch.utils.data.TensorDataset(xs_val, ys_val), batch_size=batch_size
)

##########################################################################################
# Model
##########################################################################################


class NakedAttention(torch.nn.Module):
    def __init__(self, num_tokens, num_features, num_classes):
        super().__init__()
        self.embedding = torch.nn.Embedding(num_tokens, num_features)
        self.W_q = torch.nn.Linear(num_features, num_features)
        self.W_k = torch.nn.Linear(num_features, num_features)
        self.W_v = torch.nn.Linear(num_features, num_features)
        self.query = torch.nn.Parameter(torch.randn(num_features) / num_features**0.5)
        self.W_out = torch.nn.Linear(num_features, num_classes)

    def forward(self, x):
        h = self.embedding(x)
        q = self.W_q(self.query)
        k = self.W_k(h)
        v = self.W_v(h)
        w = torch.softmax(k @ q / k.shape[-1] ** 0.5, dim=1)
        z = (w.unsqueeze(2) * v).sum(1)
        return self.W_out(z)


model = NakedAttention(num_tokens, num_features, num_classes)
loss = torch.nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=learning_rate)

##########################################################################################
# Train
##########################################################################################

for epoch in range(num_epochs):
    e_train, a_train = 0.0, 0.0
    model.train()
    for xs_batch, ys_batch in loader_train:
        ls_batch = model(xs_batch)
        e_batch = loss(ls_batch, ys_batch)
        a_batch = torch.mean((torch.argmax(ls_batch, 1) == ys_batch).float())
        optimizer.zero_grad()
        e_batch.backward()
        optimizer.step()
        e_train += e_batch / len(loader_train)
        a_train += a_batch / len(loader_train)

    e_val, a_val = 0.0, 0.0
    model.eval()
    with torch.no_grad():
        for xs_batch, ys_batch in loader_val:
            ls_batch = model(xs_batch)
            e_val += loss(ls_batch, ys_batch).item() / len(loader_val)
            a_val += torch.mean((torch.argmax(ls_batch, 1) == ys_batch).float()).item() / len(loader_val)

    print(
        "Epoch:", epoch,
        f"Training Loss: {e_train:.4f}", f"Training Accuracy: {a_train:.4f}",
        "Validation Loss: %.4f" % e_val, "Validation Accuracy: %.4f" % a_val,
    )
