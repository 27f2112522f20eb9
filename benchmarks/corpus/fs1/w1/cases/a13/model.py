import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torchvision.models import resnet

dim_dict = {"resnet18": 512, "resnet34": 512, "resnet50": 2048}


class ModelBase(nn.Module):
    """CIFAR variant of a torchvision ResNet: 3x3 stem, no max-pool, projector head."""

    def __init__(self, projection_dim=128, arch="resnet18"):
        super().__init__()
        net = getattr(resnet, arch)(num_classes=dim_dict[arch])
        layers = []
        for name, module in net.named_children():
            if name == "conv1":
                module = nn.Conv2d(3, 64, kernel_size=3, stride=1, padding=1, bias=False)
            if isinstance(module, nn.MaxPool2d):
                continue
            if name == "fc":
                layers.append(nn.Flatten(1))
                continue
            layers.append(module)
        self.net = nn.Sequential(*layers)
        self.feat_dim = dim_dict[arch]
        self.projector = nn.Sequential(nn.Linear(self.feat_dim, 512), nn.ReLU(True),
                                       nn.Linear(512, projection_dim))

    def forward(self, x, feat=False):
        x = self.net(x)
        return x if feat else self.projector(x)


class ASCL(nn.Module):
    def __init__(self, model="moco", dim=128, mem_size=64, m=0.99, T1=0.1, T2=0.05,
                 arch="resnet18", type="ascl", nn_num=1):
        super().__init__()
        self.K, self.m, self.T1, self.T2 = mem_size, m, T1, T2
        self.type, self.model, self.nn_num = type, model, nn_num
        self.encoder_q = ModelBase(dim, arch)
        self.encoder_k = ModelBase(dim, arch)
        if self.model == "byol":
            self.predictor = nn.Sequential(nn.Linear(dim, 512), nn.BatchNorm1d(512), nn.ReLU(),
                                           nn.Linear(512, dim))
        for param_q, param_k in zip(self.encoder_q.parameters(), self.encoder_k.parameters()):
            param_k.data.copy_(param_q.data)
            param_k.requires_grad = False
        self.max_entropy = np.log(self.K)
        self.register_buffer("queue", F.normalize(torch.randn(dim, self.K), dim=0))
        self.register_buffer("queue_ptr", torch.zeros(1, dtype=torch.long))

    @torch.no_grad()
    def _momentum_update_key_encoder(self):
        for param_q, param_k in zip(self.encoder_q.parameters(), self.encoder_k.parameters()):
            param_k.data = param_k.data * self.m + param_q.data * (1.0 - self.m)

    @torch.no_grad()
    def _dequeue_and_enqueue(self, keys):
        batch_size = keys.shape[0]
        ptr = int(self.queue_ptr)
        self.queue[:, ptr:ptr + batch_size] = keys.t()
        self.queue_ptr[0] = (ptr + batch_size) % self.K

    def _soft_labels(self, logits_pd):
        pseudo = F.softmax(logits_pd / self.T2, 1)
        entropy = -torch.sum(pseudo * F.log_softmax(logits_pd / self.T2, 1), dim=1, keepdim=True)
        c = 1 - entropy / np.log(pseudo.shape[1])
        return torch.minimum(self.nn_num * c * pseudo, torch.tensor(1.0))

    def _forward_moco(self, im_q, im_k):
        self._momentum_update_key_encoder()
        q = F.normalize(self.encoder_q(im_q), dim=1)
        with torch.no_grad():
            k = F.normalize(self.encoder_k(im_k), dim=1)
            logits_pd = torch.einsum("nc,ck->nk", [k, self.queue.clone().detach()])
            labels = torch.zeros(logits_pd.size(0), logits_pd.size(1) + 1)
            labels[:, 0] = 1.0
            if self.type == "ascl":
                labels[:, 1:] = self._soft_labels(logits_pd * self.T2)
            labels = labels / labels.sum(dim=1, keepdim=True)
        l_pos = torch.einsum("nc,nc->n", [q, k]).unsqueeze(-1)
        l_neg = torch.einsum("nc,ck->nk", [q, self.queue.clone().detach()])
        logits = torch.cat([l_pos, l_neg], dim=1) / self.T1
        loss = -torch.sum(labels * F.log_softmax(logits, 1), 1).mean()
        self._dequeue_and_enqueue(k)
        return loss

    def _forward_byol(self, im_q, im_k):
        self._momentum_update_key_encoder()
        q = self.encoder_q(im_q)
        with torch.no_grad():
            k = F.normalize(self.encoder_k(im_k), dim=-1, p=2)
        hq = F.normalize(self.predictor(q), dim=-1, p=2)
        if self.type == "ascl":
            with torch.no_grad():
                distk = k @ k.T
                off_diag = ~torch.eye(distk.shape[0], dtype=torch.bool)
                logits_pd = distk[off_diag].reshape(distk.shape[0], -1)
                labels = torch.zeros_like(distk)
                labels.fill_diagonal_(1)
                labels[off_diag] = self._soft_labels(logits_pd).reshape(-1)
                labels = labels / labels.sum(dim=1, keepdim=True)
            dist_real = hq @ k.T
            loss = 2 - 2 * (labels * dist_real).sum(dim=-1)
        else:
            loss = 2 - 2 * (hq * k).sum(dim=-1)
        self._dequeue_and_enqueue(k)
        return loss

    def forward(self, im_q, im_k):
        if self.model == "byol":
            return self._forward_byol(im_q, im_k)
        if self.model == "moco":
            return self._forward_moco(im_q, im_k)
        raise ValueError(f"Wrong model! Should be moco or byol rather than {self.model}!")
