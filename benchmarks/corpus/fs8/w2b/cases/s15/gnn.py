import compat  # noqa: F401
import lightning as L
import torch
import torch.nn as nn
import torch.nn.functional as F


class GraphConv(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.lin = nn.Linear(cin, cout)

    def forward(self, x, adj):
        return adj @ self.lin(x)


class NodePredictionModel(L.LightningModule):
    def __init__(self, graph, n_feats, n_classes, hidden=32, lr=0.5, max_grad_norm=None):
        super().__init__()
        self.save_hyperparameters(ignore=["graph"])
        self.automatic_optimization = False
        self.x, self.adj, self.y = graph
        self.conv1 = GraphConv(n_feats, hidden)
        self.conv2 = GraphConv(hidden, n_classes)

    def forward(self, x, adj):
        return self.conv2(F.relu(self.conv1(x, adj)), adj)

    def training_step(self, batch, batch_idx):
        (nodes,) = batch
        opt = self.optimizers()
        logits = self(self.x, self.adj)[nodes]
        loss = F.cross_entropy(logits, self.y[nodes])
        opt.zero_grad()
        self.manual_backward(loss)
        opt.step()
        if self.hparams.max_grad_norm is not None:
            self.clip_gradients(opt, gradient_clip_val=self.hparams.max_grad_norm,
                                gradient_clip_algorithm="norm")
        self.log("train_loss", loss, prog_bar=False)
        return loss

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=self.hparams.lr)
