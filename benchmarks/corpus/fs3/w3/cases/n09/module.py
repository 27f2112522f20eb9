import compat  # noqa: F401
import lightning as L
import torch
import torch.nn as nn
import torch.nn.functional as F


class LitModel(L.LightningModule):
    def __init__(self, in_features=10, out_features=5, hidden_dim=20, truncated_bptt_steps=3):
        super().__init__()
        self.automatic_optimization = False
        self.truncated_bptt_steps = truncated_bptt_steps
        self.rnn = nn.LSTM(in_features, hidden_dim, batch_first=True)
        self.linear_out = nn.Linear(hidden_dim, out_features)

    def forward(self, x, hs):
        seq, hs = self.rnn(x, hs)
        return self.linear_out(seq), hs

    def training_step(self, batch, batch_idx):
        x, y = batch
        split_x = x.tensor_split(self.truncated_bptt_steps, dim=1)
        split_y = y.tensor_split(self.truncated_bptt_steps, dim=1)

        hiddens = None
        optimizer = self.optimizers()
        losses = []
        for x_chunk, y_chunk in zip(split_x, split_y):
            y_pred, hiddens = self(x_chunk, hiddens)
            loss = F.mse_loss(y_pred, y_chunk)

            optimizer.zero_grad()
            self.manual_backward(loss)
            optimizer.step()
            losses.append(loss.detach())

            hiddens = tuple(h.detach() for h in hiddens)

        avg_loss = sum(losses) / len(losses)
        self.log("train_loss", avg_loss, prog_bar=True)

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3)
