import torch
import torch.nn as nn

from fmri_lstm import fMRI_LSTM

torch.manual_seed(0)

W = 20            # window size
ROIS = 22         # regions of interest per time point
batch_size = 16

train_data = torch.randn(64, 100, ROIS)
train_label = torch.randint(0, 2, (64,)).float()

net = fMRI_LSTM(32, ROIS, batch_size=batch_size)
criterion = nn.BCELoss()
optimizer = torch.optim.Adam(net.parameters(), lr=1e-3, weight_decay=1e-3)


def sample_batch():
    idx = torch.randperm(train_data.shape[0])[:batch_size]
    start = torch.randint(0, train_data.shape[1] - W, (1,)).item()
    return train_data[idx, start:start + W], train_label[idx]


training_loss = 0.0
for epoch in range(6):
    net.train()
    x, y = sample_batch()
    optimizer.zero_grad()
    outputs = net(x)
    loss = criterion(outputs.squeeze(1), y)
    loss.backward()
    optimizer.step()
    training_loss += loss.item()
    print(f"[{epoch + 1}] training loss: {training_loss / (epoch + 1):.3f}")
