import torch
import torch.nn as nn
import torch.nn.functional as F


class VectorQuantizerEMA(nn.Module):
    def __init__(self, num_embeddings, embedding_dim, commitment_cost, decay, epsilon=1e-5):
        super().__init__()
        self._embedding_dim = embedding_dim
        self._num_embeddings = num_embeddings
        self._commitment_cost = commitment_cost
        self._decay = decay
        self._epsilon = epsilon
        self.register_buffer("codebook", torch.randn(num_embeddings, embedding_dim))
        self.register_buffer("ema_cluster_size", torch.ones(num_embeddings))
        self.register_buffer("ema_w", self.codebook.clone())

    def forward(self, inputs):
        inputs = inputs.permute(0, 2, 3, 1).contiguous()
        input_shape = inputs.shape
        flat_input = inputs.view(-1, self._embedding_dim)

        distances = (flat_input.pow(2).sum(1, keepdim=True)
                     + self.codebook.pow(2).sum(1)
                     - 2 * flat_input @ self.codebook.t())
        encoding_indices = distances.argmin(1)
        encodings = F.one_hot(encoding_indices, self._num_embeddings).type(flat_input.dtype)
        quantized = F.embedding(encoding_indices, self.codebook).view(input_shape)

        if self.training:
            with torch.no_grad():
                self.ema_cluster_size.mul_(self._decay).add_(encodings.sum(0), alpha=1 - self._decay)
                n = self.ema_cluster_size.sum()
                self.ema_cluster_size.add_(self._epsilon).div_(n + self._num_embeddings * self._epsilon).mul_(n)
                dw = encodings.t() @ flat_input
                self.ema_w.mul_(self._decay).add_(dw, alpha=1 - self._decay)
                self.codebook.copy_(self.ema_w / self.ema_cluster_size.unsqueeze(1))

        e_latent_loss = F.mse_loss(quantized.detach(), inputs)
        loss = self._commitment_cost * e_latent_loss

        quantized = inputs + (quantized - inputs).detach()
        avg_probs = encodings.mean(0)
        perplexity = torch.exp(-torch.sum(avg_probs * torch.log(avg_probs + 1e-10)))
        return loss, quantized.permute(0, 3, 1, 2).contiguous(), perplexity
