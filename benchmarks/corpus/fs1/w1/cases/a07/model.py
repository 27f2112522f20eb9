import torch
import torch.nn as nn
import torch.nn.functional as F


class InfiniAttention(nn.Module):
    """Infini-attention: local causal attention mixed with a compressive linear-attention memory."""

    def __init__(self, dim, num_heads):
        super().__init__()
        self.num_heads = num_heads
        self.head_dim = dim // num_heads
        self.q_proj = nn.Linear(dim, dim)
        self.k_proj = nn.Linear(dim, dim)
        self.v_proj = nn.Linear(dim, dim)
        self.o_proj = nn.Linear(dim, dim)
        self.beta = nn.Parameter(torch.zeros(1))
        self.M = None
        self.z = None

    def reset_memory(self):
        self.M = None
        self.z = None

    def forward(self, hidden_states):
        bsz, q_len, _ = hidden_states.shape
        if self.M is None:
            self.M = hidden_states.new_zeros(bsz, self.num_heads, self.head_dim, self.head_dim)
            self.z = hidden_states.new_zeros(bsz, self.num_heads, self.head_dim)

        def split(t):
            return t.view(bsz, q_len, self.num_heads, self.head_dim).transpose(1, 2)

        q = split(self.q_proj(hidden_states))
        k = split(self.k_proj(hidden_states))
        v = split(self.v_proj(hidden_states))

        memory_output = self._retrieve_from_memory(q)
        self._update_memory(k, v)
        attn_output = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        combined = self._long_term_injection(attn_output, memory_output)
        combined = combined.transpose(1, 2).reshape(bsz, q_len, -1)
        return self.o_proj(combined)

    def _retrieve_from_memory(self, q):
        sigma_q = F.elu(q) + 1
        m_s = torch.matmul(sigma_q, self.M)
        z_s = torch.matmul(sigma_q, self.z.unsqueeze(-1)) + 1e-8
        return m_s / z_s

    def _update_memory(self, k, v):
        sigma_k = F.elu(k) + 1
        updated_M = self.M + torch.matmul(sigma_k.transpose(-2, -1), v)
        updated_z = self.z + sigma_k.sum(dim=-2)
        self.M, self.z = updated_M, updated_z

    def _long_term_injection(self, attn_output, memory_output):
        beta = torch.sigmoid(self.beta)
        return beta * memory_output + (1 - beta) * attn_output


class Block(nn.Module):
    def __init__(self, dim, num_heads):
        super().__init__()
        self.ln1 = nn.LayerNorm(dim)
        self.attn = InfiniAttention(dim, num_heads)
        self.ln2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))


class InfiniLM(nn.Module):
    def __init__(self, vocab_size=100, dim=32, num_heads=4, num_layers=2, segment_len=16):
        super().__init__()
        self.segment_len = segment_len
        self.embed = nn.Embedding(vocab_size, dim)
        self.pos = nn.Embedding(segment_len, dim)
        self.blocks = nn.ModuleList(Block(dim, num_heads) for _ in range(num_layers))
        self.ln_f = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, vocab_size, bias=False)

    def reset_memory(self):
        for block in self.blocks:
            block.attn.reset_memory()

    def forward(self, input_ids, labels=None):
        positions = torch.arange(input_ids.shape[1], device=input_ids.device)
        x = self.embed(input_ids) + self.pos(positions)
        for block in self.blocks:
            x = block(x)
        logits = self.head(self.ln_f(x))
        loss = None
        if labels is not None:
            loss = F.cross_entropy(logits[:, :-1].reshape(-1, logits.shape[-1]),
                                   labels[:, 1:].reshape(-1))
        return logits, loss
