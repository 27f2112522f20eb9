import compat  # noqa: F401
import torch
from transformers import BertConfig, BertForSequenceClassification

from vocab import BASE_VOCAB_SIZE, DOMAIN_TERMS, extended_vocab


def build_model(cfg):
    config = BertConfig(
        vocab_size=BASE_VOCAB_SIZE,
        hidden_size=cfg["hidden"],
        num_hidden_layers=cfg["layers"],
        num_attention_heads=cfg["heads"],
        intermediate_size=cfg["hidden"] * 2,
        max_position_embeddings=64,
        num_labels=cfg["num_labels"],
    )
    return BertForSequenceClassification(config)


def init_random(embeddings, new_ids):
    return None


def init_piece_mean(embeddings, new_ids):
    weight = embeddings.weight
    for term, new_id in new_ids.items():
        pieces = torch.tensor(DOMAIN_TERMS[term])
        weight[new_id] = weight[pieces].mean(dim=0)


def init_global_mean(embeddings, new_ids):
    weight = embeddings.weight
    mean = weight[:BASE_VOCAB_SIZE].mean(dim=0)
    for new_id in new_ids.values():
        weight[new_id] = mean


NEW_TOKEN_INIT = {
    "random": init_random,
    "piece_mean": init_piece_mean,
    "global_mean": init_global_mean,
}


def add_domain_tokens(model, strategy):
    new_ids, new_size = extended_vocab()
    model.resize_token_embeddings(new_size, mean_resizing=False)
    NEW_TOKEN_INIT[strategy](model.get_input_embeddings(), new_ids)
    return new_ids
