import torch
import torch.nn as nn

from model import Net, lr_warmup_cosine_decay


class Model(nn.Module):
    def __init__(self, n_classes=1, input_shape=(16, 96), layer_dim=64, n_blocks=1, seed=0):
        super().__init__()
        torch.manual_seed(seed)
        self.n_classes = n_classes
        self.model = Net(input_shape, layer_dim, n_blocks, n_classes)
        self.loss = nn.functional.binary_cross_entropy
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=1e-4)
        self.history = {"loss": [], "recall": []}
        self.min_batch = 128

    def select_high_loss(self, x, y):
        predictions = self.model(x)
        keep_neg = (y == 0) & (predictions.squeeze(-1) >= 0.001)
        keep_pos = (y == 1) & (predictions.squeeze(-1) < 0.999)
        y = torch.cat((y[keep_neg], y[keep_pos]))
        predictions = torch.cat((predictions[keep_neg], predictions[keep_pos]))
        return predictions, y

    def batch_loss(self, x, y, negative_weight):
        predictions, y = self.select_high_loss(x, y)
        w = torch.ones(y.shape[0]) * negative_weight
        w[y == 1] = 1
        loss = self.loss(predictions, y[..., None].to(torch.float32), w[..., None])
        return loss, predictions, y

    def train_model(self, X, max_steps, warmup_steps, hold_steps, negative_weight_schedule=(1,), lr=1e-4):
        accumulation_steps = 1
        accumulated_samples = 0
        for step_ndx, (x, y) in enumerate(X):
            for g in self.optimizer.param_groups:
                g["lr"] = lr_warmup_cosine_decay(step_ndx, warmup_steps=warmup_steps, hold=hold_steps,
                                                 total_steps=max_steps, target_lr=lr)
            self.optimizer.zero_grad()
            weight = negative_weight_schedule[min(step_ndx, len(negative_weight_schedule) - 1)]
            loss, predictions, y = self.batch_loss(x, y, weight)
            if predictions.shape[0] == 0:
                continue
            loss = loss / accumulation_steps
            loss.backward()
            accumulated_samples += predictions.shape[0]
            if accumulated_samples < self.min_batch:
                accumulation_steps += 1
            else:
                self.optimizer.step()
                accumulation_steps = 1
                accumulated_samples = 0
                self.history["loss"].append(loss.item())
                self.history["recall"].append(((predictions.squeeze(-1) >= 0.5) == (y == 1)).float().mean().item())
            if step_ndx == max_steps - 1:
                break
