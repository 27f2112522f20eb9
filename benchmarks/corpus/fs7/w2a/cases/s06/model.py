import compat  # noqa: F401

import torch
import torch.nn as nn
from transformers import BertConfig, BertModel
from transformers.models.bert.modeling_bert import BertPooler


class MMFTransformer(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config = config
        bert_config = BertConfig(**config["backbone"])
        self.backbone = BertModel(bert_config, add_pooling_layer=False)
        self.image_proj = nn.Linear(config["image_feature_dim"], bert_config.hidden_size)
        self.pooler = BertPooler(bert_config)
        self.classifier = nn.Sequential(
            nn.Dropout(config["classifier_dropout"]),
            nn.Linear(bert_config.hidden_size, bert_config.hidden_size),
            nn.GELU(),
            nn.LayerNorm(bert_config.hidden_size),
            nn.Linear(bert_config.hidden_size, config["num_labels"]),
        )

    def get_optimizer_parameters(self, optim_config):
        lr = optim_config["lr"]
        multiplier = self.config.get("finetune_lr_multiplier", 1)
        if self.config["head_type"] == "pretraining":
            return [{"params": self.parameters(), "lr": lr}]
        param_groups = [
            {"params": list(self.backbone.parameters()) + list(self.image_proj.parameters()),
             "lr": lr * multiplier},
            {"params": self.classifier.parameters(), "lr": lr},
        ]
        return param_groups

    def forward(self, sample):
        text_emb = self.backbone.embeddings(input_ids=sample["input_ids"],
                                            token_type_ids=sample["segment_ids"])
        image_emb = self.image_proj(sample["image_feature"])
        embeddings = torch.cat([text_emb, image_emb], dim=1)
        mask = torch.cat([sample["input_mask"],
                          torch.ones(image_emb.shape[:2], dtype=sample["input_mask"].dtype)], dim=1)
        ext_mask = (1.0 - mask[:, None, None, :].float()) * torch.finfo(torch.float32).min
        hidden = self.backbone.encoder(embeddings, attention_mask=ext_mask).last_hidden_state
        pooled = self.pooler(hidden)
        return {"scores": self.classifier(pooled)}
