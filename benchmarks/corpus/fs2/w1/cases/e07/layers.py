import torch
import torch.nn as nn
import torch.nn.functional as F

from quant import DequantizeAndLinear, dequantize_blockwise, make_code, quantize_blockwise


class FrozenBNBLinear(nn.Module):
    def __init__(self, weight, absmax, code, bias=None):
        super().__init__()
        self.out_features, self.in_features = weight.shape
        self.register_buffer("weight", weight.requires_grad_(False))
        self.register_buffer("absmax", absmax.requires_grad_(False))
        self.register_buffer("code", code.requires_grad_(False))
        self.register_buffer("bias", None if bias is None else bias.detach().clone())
        self.adapter = None

    def forward(self, input):
        output = DequantizeAndLinear.apply(input, self.weight, self.absmax, self.code, self.bias)
        if self.adapter:
            output += self.adapter(input)
        return output

    @classmethod
    def from_linear(cls, linear: nn.Linear):
        code = make_code()
        weight, absmax = quantize_blockwise(linear.weight.detach(), code)
        return cls(weight, absmax, code, linear.bias)


class FrozenBNBEmbedding(nn.Module):
    def __init__(self, weight, absmax, code):
        super().__init__()
        self.num_embeddings, self.embedding_dim = weight.shape
        self.register_buffer("weight", weight.requires_grad_(False))
        self.register_buffer("absmax", absmax.requires_grad_(False))
        self.register_buffer("code", code.requires_grad_(False))
        self.adapter = None

    def forward(self, input):
        with torch.no_grad():
            weight_deq = dequantize_blockwise(self.weight, self.absmax, self.code)
            output = F.embedding(input, weight_deq)
        if self.adapter:
            output += self.adapter(input)
        return output

    @classmethod
    def from_embedding(cls, embedding: nn.Embedding):
        code = make_code()
        weight, absmax = quantize_blockwise(embedding.weight.detach(), code)
        return cls(weight, absmax, code)


def convert_to_int8(model):
    for module in list(model.modules()):
        for name, child in list(module.named_children()):
            if isinstance(child, nn.Linear) and name != "lm_head":
                setattr(module, name, FrozenBNBLinear.from_linear(child))
            elif isinstance(child, nn.Embedding):
                setattr(module, name, FrozenBNBEmbedding.from_embedding(child))
    for p in model.parameters():
        p.requires_grad_(False)
    return model


def add_adapters(model, adapter_dim=4):
    for module in model.modules():
        if isinstance(module, FrozenBNBLinear):
            module.adapter = nn.Sequential(
                nn.Linear(module.in_features, adapter_dim, bias=False),
                nn.Linear(adapter_dim, module.out_features, bias=False),
            )
            nn.init.zeros_(module.adapter[1].weight)
        elif isinstance(module, FrozenBNBEmbedding):
            module.adapter = nn.Sequential(
                nn.Embedding(module.num_embeddings, adapter_dim),
                nn.Linear(adapter_dim, module.embedding_dim, bias=False),
            )
            nn.init.zeros_(module.adapter[1].weight)
    return model
